# Sets up a fresh Debian/Ubuntu machine for GPU Lab: the Debian packages the build and the tests need, and a
# Node.js >= 22.12 (Node 24 from the npm registry when the machine's Node is older). Source it, so that the Node it
# installs stays first on PATH for the commands that follow:
#
#   source scripts/bootstrap.sh && npm ci && npm test
#
# Safe to source again: it installs only what is missing. Without root or apt-get it installs nothing and says
# what is missing.

# A WebGPU adapter for the WebGPU device's tests (npm webgpu, Dawn's Node bindings): Mesa's lavapipe, a Vulkan driver
# that runs on the CPU. Debian 12's own (Mesa 22.3) is refused by Dawn ("Vulkan shaderUniform*ArrayDynamicIndexing
# required"), so on bookworm it comes from bookworm-backports (Mesa 25), pinned to mesa-vulkan-drivers and the libdrm
# it needs from there: nothing else is taken from backports. Where backports cannot be reached, Debian's own Mesa EGL
# and GL ES are installed instead, which Dawn's OpenGL ES backend drives in compatibility mode (without timestamp
# queries); the compute host falls back to it by itself (main/host/webgpu/dawn.ts). Other systems' packages are used
# as they are (Ubuntu 24.04's Mesa 24 works).
gpu_lab_webgpu_driver() {
  local mesa
  mesa=$(dpkg-query -W -f '${Version}' mesa-vulkan-drivers 2>/dev/null)
  # Mesa 23 or later: lavapipe with what Dawn needs.
  case "$mesa" in 2[3-9].* | [3-9][0-9].*) return 0 ;; esac
  if ! command -v apt-get >/dev/null 2>&1 || [ "$(id -u)" != 0 ]; then
    echo "[bootstrap] no Vulkan driver Dawn accepts (mesa-vulkan-drivers ${mesa:-missing}): WebGPU's tests need Mesa 23 or later's lavapipe" >&2
    return 0
  fi
  local codename
  codename=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
  if [ "$codename" = bookworm ]; then
    local list=/etc/apt/sources.list.d/gpu-lab-bookworm-backports.sources
    if ! grep -rqs 'bookworm-backports' /etc/apt/sources.list /etc/apt/sources.list.d/; then
      printf 'Types: deb\nURIs: http://deb.debian.org/debian\nSuites: bookworm-backports\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' >"$list"
    fi
    echo "[bootstrap] installing lavapipe (mesa-vulkan-drivers) from bookworm-backports for WebGPU"
    if apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends -t bookworm-backports \
      mesa-vulkan-drivers libdrm2 libdrm-amdgpu1 libdrm-common >/dev/null &&
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends libvulkan1 >/dev/null; then
      return 0
    fi
    echo "[bootstrap] bookworm-backports could not be reached: WebGPU falls back to Dawn's OpenGL ES backend on Debian's Mesa" >&2
  else
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends mesa-vulkan-drivers libvulkan1 >/dev/null && return 0
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends libegl1 libegl-mesa0 libgles2 libgl1-mesa-dri >/dev/null ||
    echo "[bootstrap] could not install Mesa's EGL and GL ES: there will be no WebGPU adapter" >&2
  return 0
}

gpu_lab_bootstrap() {
  # Playwright drives Debian's Chromium; its own browser download cannot work on these machines.
  export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
  # chromium: the browser the end-to-end tests drive (Playwright never downloads its own here); fonts-dejavu-core:
  # the same glyphs in every screenshot; poppler-utils: pdftotext, pdfinfo and pdftoppm, which read the PDF reports
  # back in the tests; cpp: GCC's preprocessor, the independent judge of the playground's source check;
  # desktop-file-utils: desktop-file-validate, which checks the Linux packages' menu entries; python3-numpy: the
  # NumPy peer series the labs time beside the engine, tested for real; slurm-wlm and munge: the one-node Slurm the
  # batch tests start in a temporary folder (tests/unit/cli/support/slurm-cluster.ts), sbatch and squeue for real.
  local packages="build-essential cpp python3 python3-numpy libopenblas0-pthread chromium fonts-dejavu-core poppler-utils desktop-file-utils slurm-wlm munge"
  local missing="" p
  for p in $packages; do
    dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
  done
  if [ -n "$missing" ]; then
    if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
      echo "[bootstrap] installing Debian packages:$missing"
      apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null ||
        { echo "[bootstrap] apt-get install failed" >&2; return 1; }
    else
      echo "[bootstrap] missing Debian packages:$missing (run as root, or install them yourself)" >&2
    fi
  fi

  gpu_lab_webgpu_driver

  if command -v node >/dev/null 2>&1 &&
    node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>22||(a===22&&b>=12)?0:1)'; then
    return 0
  fi
  local dir="${GPU_LAB_NODE_DIR:-$HOME/.cache/gpu-lab/node24}" bin
  bin=$(find "$dir" -path '*/node-linux-*/bin/node' -type f 2>/dev/null | head -n 1)
  if [ -z "$bin" ]; then
    echo "[bootstrap] Node $(node --version 2>/dev/null || echo 'is missing') is older than 22.12: installing Node 24 from the npm registry into $dir"
    mkdir -p "$dir" && npm install --prefix "$dir" --no-save --silent node@24 >/dev/null ||
      { echo "[bootstrap] could not install node@24" >&2; return 1; }
    bin=$(find "$dir" -path '*/node-linux-*/bin/node' -type f | head -n 1)
  fi
  [ -n "$bin" ] || { echo "[bootstrap] node@24 installed no binary under $dir" >&2; return 1; }
  # The package's bin/ holds the real binary with include/node beside it: node-gyp builds against those headers.
  export PATH="$(dirname "$bin"):$PATH"
  echo "[bootstrap] using Node $(node --version) from $(dirname "$bin")"
}

gpu_lab_bootstrap
