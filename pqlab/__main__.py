from pqlab.cli import main

main()
