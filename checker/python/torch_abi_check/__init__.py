"""torch-abi-check installed with pip: the C++ command line and the project files it reads."""
