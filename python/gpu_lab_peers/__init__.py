"""GPU Lab's Python peers: the course's own code (NumPy, PyTorch, CuPy, Numba), timed beside the engine's.

A worker the compute host starts (`python3 -m gpu_lab_peers`), speaking JSON lines over stdio (protocol.py), on
inputs the engine generates and shares through files, its outputs verified by the engine. Standard library and the
peers only: nothing here is installed, the package is read from GPU Lab's resources."""
