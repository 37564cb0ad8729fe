from attncert.cli import main

main()
