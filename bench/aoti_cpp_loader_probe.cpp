// A probe of issue 27 item 5 (not a cell of the tool): loads a .pt2 with the C++ loader
// (torch::inductor::AOTIModelPackageLoader) of the torch it is built against and runs it on one
// float32 input of shape (3, 8), the input of fixtures/check/pt2/compile_package.py's model. Its
// outputs are not compared with eager. Built and run by bench/aoti_cpp_loader_probe.sh.
#include <ATen/ATen.h>
#include <torch/csrc/inductor/aoti_package/model_package_loader.h>

#include <iostream>

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  try {
    torch::inductor::AOTIModelPackageLoader loader(argv[1]);
    std::vector<at::Tensor> inputs = {at::randn({3, 8})};
    std::vector<at::Tensor> outputs = loader.run(inputs);
    std::cout << "loaded and ran: " << outputs.size() << " outputs\n";
  } catch (const std::exception& error) {
    std::cout << "failed: " << error.what() << "\n";
    return 1;
  }
  return 0;
}
