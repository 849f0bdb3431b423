#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "gemm_advisor/emit.hpp"
#include "gemm_advisor/error.hpp"
#include "gemm_advisor/targets/triton.hpp"
#include "test_util.hpp"

using namespace gemm_advisor;
namespace fs = std::filesystem;

namespace {

std::string read_all(const fs::path& path) {
  std::ifstream in(path);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A fresh directory under the system's temporary directory, removed at the end of the test.
struct TempDir {
  fs::path path;
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "gemm-advisor-emit-XXXXXX").string();
    path = ::mkdtemp(pattern.data());
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

}  // namespace

TEST_CASE("Triton configs carry Triton's names, in Triton's order", "[emit]") {
  TileConfig c;
  c.block_m = 64;
  c.block_n = 128;
  c.block_k = 32;
  c.group_m = 8;
  c.split_k = 2;
  c.num_warps = 4;
  c.num_stages = 3;
  CHECK(triton_config_json(c).dump() ==
        R"({"BLOCK_M":64,"BLOCK_N":128,"BLOCK_K":32,"GROUP_M":8,"SPLIT_K":2,"num_warps":4,"num_stages":3})");
}

TEST_CASE("triton_configs_json keeps the top feasible entries only", "[emit]") {
  std::vector<RankedConfig> ranked(4);
  for (int i = 0; i < 4; ++i) {
    ranked[static_cast<std::size_t>(i)].config.block_m = 16 << i;
    ranked[static_cast<std::size_t>(i)].estimate.feasible = i < 3;
  }
  CHECK(triton_configs_json(ranked, 2).size() == 2);
  CHECK(triton_configs_json(ranked, 0).size() == 3);  // all feasible, never the infeasible tail
  CHECK(triton_configs_json(ranked, 10).size() == 3);
  CHECK(triton_configs_json(ranked, 1)[0]["BLOCK_M"] == 16);
}

TEST_CASE("vLLM file names and device names are spelled as vLLM spells them", "[emit][vllm]") {
  CHECK(vllm_config_file_name(6144, 4096, "NVIDIA_H200") ==
        "N=6144,K=4096,device_name=NVIDIA_H200,dtype=fp8_w8a8,block_shape=[128,128].json");
  const std::pair<const char*, const char*> expected[] = {
      {"h100", "NVIDIA_H100_80GB_HBM3"}, {"h200", "NVIDIA_H200"},          {"b200", "NVIDIA_B200"},
      {"a100", "NVIDIA_A100-SXM4-80GB"}, {"mi300x", "AMD_Instinct_MI300X"}, {"mi350x", "AMD_Instinct_MI350X"},
      {"mi355x", "AMD_Instinct_MI355X"}};
  for (const auto& [profile, name] : expected) CHECK(vllm_device_name(load_profile(profile).hw) == name);
  CHECK_THROWS_AS(vllm_device_name(test_util::toy().hw), InputError);
}

TEST_CASE("vLLM's M grid is the tuner's", "[emit][vllm]") {
  const std::vector<std::int64_t> want = {1, 2, 4, 8, 16, 24, 32, 48, 64, 96, 128, 256, 512, 1024, 1536, 2048, 3072, 4096};
  CHECK(vllm_default_m_values() == want);
}

TEST_CASE("vLLM's block FP8 space: no split-K, BLOCK_K divides the quantization block", "[emit][vllm]") {
  const Profile hw = load_profile("h200");
  GemmProblem p = parse_shape("4096x7168x16384");
  p.dtype = Dtype::fp8;
  std::vector<TileConfig> space;
  vllm_block_fp8_candidates(p, hw, space);
  REQUIRE_FALSE(space.empty());
  bool has_128 = false;
  for (const TileConfig& c : space) {
    CHECK(c.split_k == 1);
    CHECK(c.block_k <= kVllmQuantBlockK);
    CHECK(kVllmQuantBlockK % c.block_k == 0);
    CHECK(triton_infeasibility(c, p, hw).empty());
    has_128 = has_128 || c.block_k == kVllmQuantBlockK;
  }
  CHECK(has_128);
  // The full triton space of the same problem does have split-K and BLOCK_K 256 configs.
  std::vector<TileConfig> full;
  triton_candidates(p, hw, full);
  CHECK(full.size() > space.size());
}

TEST_CASE("a profile without fp8 cannot run vLLM's FP8 kernel", "[emit][vllm]") {
  CHECK_THROWS_WITH(require_vllm_block_fp8(load_profile("a100").hw), Catch::Contains("no fp8"));
  CHECK_NOTHROW(require_vllm_block_fp8(load_profile("mi300x").hw));
}

TEST_CASE("a vLLM config file maps M strings, ascending, to configs with vLLM's keys", "[emit][vllm]") {
  TileConfig small, large;
  small.block_m = 16;
  large.block_m = 128;
  const std::string text = vllm_config_file_text({{1024, large}, {2, small}, {16, small}});
  const auto j = nlohmann::ordered_json::parse(text);
  std::vector<std::string> keys;
  for (const auto& item : j.items()) keys.push_back(item.key());
  CHECK(keys == std::vector<std::string>{"2", "16", "1024"});
  std::vector<std::string> config_keys;
  for (const auto& item : j["1024"].items()) config_keys.push_back(item.key());
  CHECK(config_keys ==
        std::vector<std::string>{"BLOCK_SIZE_M", "BLOCK_SIZE_N", "BLOCK_SIZE_K", "GROUP_SIZE_M", "num_warps", "num_stages"});
  CHECK(j["1024"]["BLOCK_SIZE_M"] == 128);
  CHECK(text.rfind("{\n    \"2\": {\n        \"BLOCK_SIZE_M\": 16,", 0) == 0);  // json.dump(indent=4)
  CHECK(text.back() == '\n');
}

TEST_CASE("files are written whole, replaced atomically, and leave no temporary behind", "[emit][files]") {
  TempDir dir;
  const fs::path file = dir.path / "N=1,K=2.json";
  write_file_atomically(file.string(), "first\n");
  CHECK(read_all(file) == "first\n");
  write_file_atomically(file.string(), "second, longer\n");
  CHECK(read_all(file) == "second, longer\n");
  std::size_t entries = 0;
  for (const auto& e : fs::directory_iterator(dir.path)) {
    (void)e;
    ++entries;
  }
  CHECK(entries == 1);
  CHECK_THROWS_WITH(write_file_atomically((dir.path / "missing" / "x.json").string(), "x"),
                    Catch::Contains("missing/x.json: cannot write"));
}

TEST_CASE("ensure_directory creates parents and rejects a file", "[emit][files]") {
  TempDir dir;
  const fs::path nested = dir.path / "a" / "b";
  ensure_directory(nested.string());
  CHECK(fs::is_directory(nested));
  ensure_directory(nested.string());  // already there: fine
  write_file_atomically((dir.path / "plain").string(), "x");
  CHECK_THROWS_WITH(ensure_directory((dir.path / "plain").string()), Catch::Contains("not a directory"));
}
