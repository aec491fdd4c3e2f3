// How a user gets the CUDA toolkit's libraries GPU Lab opens at run time. The NVIDIA driver ships NVML but not
// cuBLAS or NVRTC: on a machine with the driver alone the devices view and `gpu-lab devices` give these commands.
// Commands are the same in every language; the words around them are in the catalogs.
//
// Debian 13 (in non-free) and Ubuntu 24.04 and later (in multiverse) package CUDA 12's libraries under these names
// (checked with apt-cache against Debian's archive; Debian 12 has only CUDA 11's, which the addon does not open).
// NVIDIA's wheels for CUDA 13 dropped the -cu13 suffix (nvidia-cuda-nvrtc-cu13 is an empty package pointing to
// nvidia-cuda-nvrtc); the addon opens the .so.13 and the .so.12 of each, and needs a driver for CUDA 13 anyway.
export type ToolkitLibraryId = 'cublas' | 'nvrtc';

export interface LibraryInstall {
  apt: string;
  pip: string;
}

export const TOOLKIT_LIBRARY_INSTALL: Record<ToolkitLibraryId, LibraryInstall> = {
  cublas: { apt: 'sudo apt install libcublas12', pip: "python3 -m pip install 'nvidia-cublas==13.*'" },
  nvrtc: { apt: 'sudo apt install libnvrtc12', pip: "python3 -m pip install 'nvidia-cuda-nvrtc==13.*'" },
};
