#compdef kcli

_kcli_completion() {
  eval $(env _TYPER_COMPLETE_ARGS="${words[1,$CURRENT]}" _KCLI_COMPLETE=complete_zsh kcli)
}

# Found on $fpath, this file is the body of the function _kcli, run at each completion: complete.
# Sourced (source <(kcli completion show zsh)): register the function for kcli.
if [[ "${funcstack[1]}" == _kcli ]]; then
  _kcli_completion "$@"
else
  compdef _kcli_completion kcli
fi
