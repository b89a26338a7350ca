# The `torch` TensorFlow.js backend's addon (torch_backend.cc), built by scripts/setup.sh with
# node-gyp against the Node headers (--nodedir) and libtorch:
#   LIBTORCH unset   Debian's libtorch-dev (headers in /usr/include, libraries on the default path)
#   LIBTORCH=DIR     a libtorch tree (DIR/include, DIR/lib), e.g. the `torch` folder of a PyTorch
#                    pip install or an unpacked libtorch zip, CUDA builds included (found at run time
#                    through an rpath to DIR/lib)
#   LIBTORCH_CXX11_ABI=0  for libtorch builds made with the pre-C++11 string ABI (older pip wheels)
{
  "variables": {
    "libtorch%": "<!(node -p \"process.env.LIBTORCH || ''\")",
    "cxx11_abi%": "<!(node -p \"process.env.LIBTORCH_CXX11_ABI || '1'\")",
    "addon_api%": "<!(node -p \"require('node-addon-api').include_dir\")"
  },
  "targets": [
    {
      "target_name": "torch_backend",
      "sources": ["torch_backend.cc"],
      "include_dirs": ["<(addon_api)"],
      "defines": ["NAPI_CPP_EXCEPTIONS", "NAPI_VERSION=8", "_GLIBCXX_USE_CXX11_ABI=<(cxx11_abi)"],
      "cflags!": ["-fno-exceptions", "-fno-rtti"],
      "cflags_cc!": ["-fno-exceptions", "-fno-rtti", "-std=gnu++17", "-std=gnu++14"],
      "cflags_cc": ["-std=c++17", "-fexceptions", "-O2", "-Wno-unused-parameter", "-Wno-deprecated-declarations"],
      "conditions": [
        ["libtorch==''", {
          "include_dirs": ["/usr/include/torch/csrc/api/include"],
          "libraries": ["-ltorch", "-ltorch_cpu", "-lc10"]
        }, {
          "include_dirs": ["<(libtorch)/include", "<(libtorch)/include/torch/csrc/api/include"],
          "libraries": ["-L<(libtorch)/lib", "-Wl,-rpath,<(libtorch)/lib", "-Wl,--no-as-needed", "-ltorch", "-ltorch_cpu", "-lc10"]
        }]
      ]
    }
  ]
}
