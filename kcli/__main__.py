from kcli.cli.entry import console

console()
