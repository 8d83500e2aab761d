from kcli.cli.main import console

console()
