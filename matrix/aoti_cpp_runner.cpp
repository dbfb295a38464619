// The C++ loader's cell of the AOTInductor suite: built against one torch release's headers and
// libraries (checker/src/aoti/cpp_loader_cells.cpp builds it once per release, cached by content) and
// run in a fresh process per cell. It loads the reference extension where the model needs it, then
// the package with torch::inductor::AOTIModelPackageLoader, runs it on the inputs saved at compile
// time and compares every output with eager's, saved with them (matrix/aoti_compile.py's
// <model>.cpp_io.pt: the inputs, the outputs and each output's (rtol, atol), read with
// torch::jit::pickle_load). It writes what it saw as JSON, in the fields of matrix/aoti_cells.py's
// results ("stage": load, run, compare, or "" when it matched), and judges nothing. A package without
// saved inputs (a user's) is loaded only; what it takes and gives is then its call spec, as the
// package's own model container reports it ("call_spec": its inputs' and outputs' trees, serialized
// by torch's pytree).
//
// Usage: aoti_cpp_runner PACKAGE.pt2 CPP_IO.pt|- RESULT.json [EXTENSION.so]   (-: load only)
//
// It is compiled once per release, and parsing torch's headers is all of that compile: it includes the
// tensor alone (not ATen/ATen.h) and declares the one function of torch/csrc/jit/serialization/pickle.h
// it calls (that header alone took 14 s to parse), so a build takes about 6 s of CPU, not 15. Should a
// release change pickle_load's signature, the runner's link fails and every C++ cell of that release
// names the linker's error.
#include <ATen/core/Tensor.h>
#include <ATen/core/ivalue.h>
#include <dlfcn.h>
#include <torch/csrc/inductor/aoti_package/model_package_loader.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

namespace torch::jit {
// As pickle.h declares it in 2.9 to 2.15 (exported by libtorch_cpu): reads what torch.save wrote.
c10::IValue pickle_load(const std::vector<char>& data);
}  // namespace torch::jit

namespace {

std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof(escaped), "\\u%04x", c);
      out += escaped;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

// The first line of a message: torch's errors carry a C++ backtrace after it.
std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

struct Result {
  std::string stage;
  std::string error;
  std::string error_type;
  std::size_t outputs = 0;
  std::vector<std::string> mismatches;
  std::vector<std::string> call_spec;  // [inputs, outputs] where it was only loaded
};

void write(const char* file, const Result& result, double seconds) {
  std::ostringstream out;
  out << "{\"loader\": \"cpp\", \"stage\": " << quoted(result.stage) << ", \"error\": " << quoted(result.error)
      << ", \"error_type\": " << quoted(result.error_type) << ", \"outputs\": " << result.outputs
      << ", \"warnings\": [], \"mismatches\": [";
  for (std::size_t i = 0; i < result.mismatches.size(); ++i) out << (i ? ", " : "") << quoted(result.mismatches[i]);
  out << "]";
  if (!result.call_spec.empty()) {
    out << ", \"call_spec\": [";
    for (std::size_t i = 0; i < result.call_spec.size(); ++i) out << (i ? ", " : "") << quoted(result.call_spec[i]);
    out << "]";
  }
  out << ", \"seconds\": " << seconds << "}\n";
  const std::string partial = std::string(file) + ".partial";
  std::ofstream(partial) << out.str();
  std::rename(partial.c_str(), file);
}

std::vector<at::Tensor> tensors(const c10::IValue& list) {
  std::vector<at::Tensor> out;
  for (const auto& element : list.toList()) out.push_back(element.get().toTensor());
  return out;
}

void compare(const std::vector<at::Tensor>& actual, const std::vector<at::Tensor>& expected,
             const at::Tensor& tolerances, Result& result) {
  result.outputs = actual.size();
  if (actual.size() != expected.size()) {
    result.mismatches.push_back(std::to_string(actual.size()) + " outputs, eager gives " +
                                std::to_string(expected.size()));
    return;
  }
  for (std::size_t i = 0; i < actual.size(); ++i) {
    const at::Tensor& got = actual[i];
    const at::Tensor& want = expected[i];
    if (got.scalar_type() != want.scalar_type() || got.sizes() != want.sizes()) {
      std::ostringstream line;
      line << "output " << i << ": " << got.scalar_type() << " " << got.sizes() << ", eager " << want.scalar_type()
           << " " << want.sizes();
      result.mismatches.push_back(line.str());
      continue;
    }
    const double rtol = tolerances[static_cast<int64_t>(i)][0].item<double>();
    const double atol = tolerances[static_cast<int64_t>(i)][1].item<double>();
    const at::Tensor a = got.to(at::kDouble);
    const at::Tensor b = want.to(at::kDouble);
    if (!a.allclose(b, rtol, atol, /*equal_nan=*/true)) {
      std::ostringstream line;
      line << "output " << i << ": differs from eager by up to " << a.sub(b).abs().max().item<double>();
      result.mismatches.push_back(line.str());
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: %s PACKAGE.pt2 CPP_IO.pt RESULT.json [EXTENSION.so]\n", argv[0]);
    return 2;
  }
  const auto started = std::chrono::steady_clock::now();
  const auto seconds = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  };
  Result result;
  if (argc > 4 && dlopen(argv[4], RTLD_NOW | RTLD_GLOBAL) == nullptr) {
    // Its STABLE_TORCH_LIBRARY registers the operators the package's proxy executor looks up.
    result.stage = "load";
    result.error = std::string("the reference extension did not load: ") + dlerror();
    result.error_type = "dlopen";
    write(argv[3], result, seconds());
    return 0;
  }
  const std::string io_file = argv[2];
  std::vector<at::Tensor> inputs;
  std::vector<at::Tensor> expected;
  at::Tensor tolerances;
  if (io_file != "-") {
    std::ifstream stream(io_file, std::ios::binary);
    const std::vector<char> bytes((std::istreambuf_iterator<char>(stream)), std::istreambuf_iterator<char>());
    const c10::IValue saved = torch::jit::pickle_load(bytes);
    const auto& parts = saved.toTupleRef().elements();
    inputs = tensors(parts[0]);
    expected = tensors(parts[1]);
    tolerances = parts[2].toTensor();
  }
  try {
    torch::inductor::AOTIModelPackageLoader loader(argv[1]);
    if (io_file == "-") {  // nothing to run it on: loaded, not run
      try {
        result.call_spec = loader.get_call_spec();
      } catch (const std::exception&) {
        // It loaded; a spec it cannot give leaves the cell saying so, by its absence.
      }
      write(argv[3], result, seconds());
      return 0;
    }
    std::vector<at::Tensor> outputs;
    try {
      outputs = loader.run(inputs);
    } catch (const std::exception& error) {
      result.stage = "run";
      result.error = first_line(error.what());
      result.error_type = "c10::Error";
      write(argv[3], result, seconds());
      return 0;
    }
    compare(outputs, expected, tolerances, result);
    if (!result.mismatches.empty()) {
      result.stage = "compare";
      result.error = result.mismatches.front();
    }
  } catch (const std::exception& error) {
    result.stage = "load";
    result.error = first_line(error.what());
    result.error_type = "c10::Error";
  }
  write(argv[3], result, seconds());
  return 0;
}
