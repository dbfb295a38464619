#include "audit/symbol_classifier.h"

#include <gtest/gtest.h>

namespace abicheck {
namespace {

ShimCatalog catalog_with(const std::string& name, TorchVersion release) {
  ShimCatalog catalog;
  catalog.add({release, {{name, DeclarationKind::Function, "", "torch/csrc/stable/c/shim.h", 1, "", release}}});
  return catalog;
}

TEST(SymbolClassifier, OutermostNamespaceOfManglingShapes) {
  EXPECT_EQ(outermost_namespace("_ZN3c106detail14torchCheckFailEPKcS2_jS2_"), "c10");
  EXPECT_EQ(outermost_namespace("_ZNK2at10TensorBase3dimEv"), "at");
  EXPECT_EQ(outermost_namespace("_ZTVN5torch8autograd4NodeE"), "torch");  // vtable
  EXPECT_EQ(outermost_namespace("_ZTIN3c1011StorageImplE"), "c10");       // typeinfo
  EXPECT_EQ(outermost_namespace("_ZNSt6vectorIiSaIiEE9push_backERKi"), "std");
  EXPECT_EQ(outermost_namespace("_ZSt9terminatev"), "std");
  EXPECT_EQ(outermost_namespace("_Z16THPVariable_WrapN2at10TensorBaseE"), "(global: THP)");
  EXPECT_EQ(outermost_namespace("_Z3foov"), "(global)");
  EXPECT_EQ(outermost_namespace("aoti_torch_get_dim"), "");
}

TEST(SymbolClassifier, ShimsCarryTheReleaseThatIntroducedThem) {
  ShimCatalog catalog = catalog_with("torch_tag_core", {2, 12, 0});
  ClassifiedSymbol known = classify_import({"torch_tag_core"}, catalog);
  EXPECT_EQ(known.category, SymbolCategory::StableShim);
  EXPECT_EQ(known.introduced, (TorchVersion{2, 12, 0}));
  ClassifiedSymbol unknown = classify_import({"torch_not_a_release_shim"}, catalog);
  EXPECT_EQ(unknown.category, SymbolCategory::StableShim);
  EXPECT_FALSE(unknown.introduced.has_value());
}

TEST(SymbolClassifier, EveryCategory) {
  ShimCatalog catalog = catalog_with("aoti_torch_get_dim", {2, 9, 0});
  EXPECT_EQ(classify_import({"memcpy", "GLIBC_2.14", "libc.so.6"}, catalog).category, SymbolCategory::System);
  EXPECT_EQ(classify_import({"_ZdlPvm", "CXXABI_1.3.9", "libstdc++.so.6"}, catalog).category, SymbolCategory::System);
  EXPECT_EQ(classify_import({"__gmon_start__", "", "", true}, catalog).category, SymbolCategory::System);
  EXPECT_EQ(classify_import({"cudaLaunchKernel", "libcudart.so.12", "libcudart.so.12"}, catalog).category,
            SymbolCategory::DeviceRuntime);
  EXPECT_EQ(classify_import({"cuLaunchKernel"}, catalog).category, SymbolCategory::DeviceRuntime);
  EXPECT_EQ(classify_import({"hipMalloc"}, catalog).category, SymbolCategory::DeviceRuntime);
  EXPECT_EQ(classify_import({"PyLong_FromLong"}, catalog).category, SymbolCategory::PythonCApi);
  EXPECT_EQ(classify_import({"_ZN3c1019UndefinedTensorImpl10_singletonE"}, catalog).category,
            SymbolCategory::UnstableTorch);
  EXPECT_EQ(classify_import({"THPVariableClass"}, catalog).category, SymbolCategory::UnstableTorch);
  EXPECT_EQ(classify_import({"avcodec_open2", "LIBAVCODEC_60", "libavcodec.so.60"}, catalog).category,
            SymbolCategory::Unknown);
}

TEST(SymbolClassifier, DemanglesForReports) {
  EXPECT_EQ(demangle("_ZN3c106detail14torchCheckFailEPKcS2_jS2_"),
            "c10::detail::torchCheckFail(char const*, char const*, unsigned int, char const*)");
  EXPECT_EQ(demangle("aoti_torch_get_dim"), "aoti_torch_get_dim");
}

TEST(SymbolClassifier, LimitedApiRuleForAbi3) {
  EXPECT_TRUE(is_limited_python_api("PyLong_FromLong"));
  EXPECT_TRUE(is_limited_python_api("_Py_Dealloc"));
  EXPECT_FALSE(is_limited_python_api("_PyObject_GetDictPtr"));
}

}  // namespace
}  // namespace abicheck
