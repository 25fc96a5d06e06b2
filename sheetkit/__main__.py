from sheetkit.cli import main

main()
