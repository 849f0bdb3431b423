#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <fstream>
#include <sstream>

#include "gemm_advisor/emit.hpp"
#include "gemm_advisor/error.hpp"
#include "gemm_advisor/targets/triton.hpp"
#include "gemm_advisor/targets/triton_tutorial.hpp"
#include "gemm_advisor/targets/vllm_fp8_block.hpp"
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

using test_util::TempDir;

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
  CHECK(config_json(triton_target(), c).dump() ==
        R"({"BLOCK_M":64,"BLOCK_N":128,"BLOCK_K":32,"GROUP_M":8,"SPLIT_K":2,"num_warps":4,"num_stages":3})");
}

TEST_CASE("each target writes its own kernel's names and no key its kernel does not take", "[emit][targets]") {
  TileConfig c;
  c.block_m = 64;
  c.block_n = 128;
  c.block_k = 32;
  c.group_m = 8;
  c.num_warps = 4;
  c.num_stages = 3;
  // Triton's tutorial: BLOCK_SIZE_* and GROUP_SIZE_M, no SPLIT_K (a kernel without it fails on the key).
  CHECK(config_json(triton_tutorial_target(), c).dump() ==
        R"({"BLOCK_SIZE_M":64,"BLOCK_SIZE_N":128,"BLOCK_SIZE_K":32,"GROUP_SIZE_M":8,"num_warps":4,"num_stages":3})");
  CHECK(config_json(vllm_fp8_block_target(), c).dump() ==
        R"({"BLOCK_SIZE_M":64,"BLOCK_SIZE_N":128,"BLOCK_SIZE_K":32,"GROUP_SIZE_M":8,"num_warps":4,"num_stages":3})");
  // --names maps the target's names to a user's kernel's, keeping the order.
  const ParameterNames names = parse_parameter_names("BLOCK_SIZE_M=BM,GROUP_SIZE_M=GROUP", triton_tutorial_target());
  CHECK(config_json(triton_tutorial_target(), c, names).dump() ==
        R"({"BM":64,"BLOCK_SIZE_N":128,"BLOCK_SIZE_K":32,"GROUP":8,"num_warps":4,"num_stages":3})");
}

TEST_CASE("renaming parameters (--names) rejects what would write a broken config", "[emit][targets][errors]") {
  const Target& t = triton_target();
  CHECK_THROWS_WITH(parse_parameter_names("BLOCK_SIZE_M=BM", t), Catch::Contains("'BLOCK_SIZE_M' is not a parameter of triton") &&
                                                                     Catch::Contains("BLOCK_M, BLOCK_N"));
  CHECK_THROWS_WITH(parse_parameter_names("BLOCK_M", t), Catch::Contains("has no '='"));
  // FROM= leaves a parameter out (as Python's names={field: None}); num_warps and num_stages are
  // triton.Config's own and cannot be renamed (the CLI renamed them: a fresh user's find, 2026-12-04).
  const ParameterNames dropped = parse_parameter_names("SPLIT_K=,GROUP_M=GROUP_SIZE_M", t);
  CHECK(config_json(t, test_util::cfg(64, 128, 32, 4, 3), dropped).dump() ==
        R"({"BLOCK_M":64,"BLOCK_N":128,"BLOCK_K":32,"GROUP_SIZE_M":8,"num_warps":4,"num_stages":3})");
  CHECK_THROWS_WITH(parse_parameter_names("num_warps=W", t), Catch::Contains("triton.Config's own argument"));
  // Onto a keyword triton.Config or the launch takes as its own (accepted before: a fresh user's find,
  // 2026-12-07): the kernel would read its block size as num_ctas.
  for (const char* text : {"BLOCK_M=num_ctas", "BLOCK_N=pre_hook", "SPLIT_K=maxnreg", "GROUP_M=kpack"})
    CHECK_THROWS_WITH(parse_parameter_names(text, t),
                      Catch::Contains("is an argument of triton.Config or of the launch"));
  CHECK(is_triton_launch_option("num_ctas"));
  CHECK(is_triton_launch_option("kpack"));  // the list's last
  CHECK_FALSE(is_triton_launch_option("num_ct"));
  CHECK_FALSE(is_triton_launch_option("BLOCK_M"));
  CHECK_THROWS_WITH(parse_parameter_names("num_stages=S", t), Catch::Contains("triton.Config's own argument"));
  CHECK_THROWS_WITH(parse_parameter_names("BLOCK_M=a-b", t), Catch::Contains("is not a name"));
  CHECK_THROWS_WITH(parse_parameter_names("BLOCK_M=X,BLOCK_M=Y", t), Catch::Contains("renamed twice"));
  CHECK_THROWS_WITH(parse_parameter_names("BLOCK_M=BLOCK_N", t), Catch::Contains("both be written as 'BLOCK_N'"));
  CHECK_NOTHROW(parse_parameter_names("BLOCK_M=BLOCK_N,BLOCK_N=BLOCK_M", t));  // a swap is fine
}

TEST_CASE("configs_json keeps the top feasible entries only", "[emit]") {
  std::vector<RankedConfig> ranked(4);
  for (int i = 0; i < 4; ++i) {
    ranked[static_cast<std::size_t>(i)].config.block_m = 16 << i;
    ranked[static_cast<std::size_t>(i)].estimate.feasible = i < 3;
  }
  CHECK(configs_json(triton_target(), ranked, 2).size() == 2);
  CHECK(configs_json(triton_target(), ranked, 0).size() == 3);  // all feasible, never the infeasible tail
  CHECK(configs_json(triton_target(), ranked, 10).size() == 3);
  CHECK(configs_json(triton_target(), ranked, 1)[0]["BLOCK_M"] == 16);
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

// A fresh user's find: a --hw FILE whose `name:` is a shipped profile's got that GPU's vLLM name
// silently, whatever its numbers. A file gets it silently only when its aliases list the name as vLLM
// spells it; by its name alone it gets it with a warning; the shipped profiles are as they were.
TEST_CASE("vLLM device name of a profile file: only by the file's word, else with a warning", "[emit][vllm]") {
  std::string h200_yaml;
  for (const EmbeddedProfile& e : embedded_profiles()) {
    if (e.name == "h200") h200_yaml = std::string(e.yaml);
  }
  REQUIRE(h200_yaml.find("clock_mhz: 1830") != std::string::npos);
  const std::string aliases = "aliases: [\"NVIDIA H200\", \"H200\"]";
  REQUIRE(h200_yaml.find(aliases) != std::string::npos);
  auto edited = [&](const std::string& from, const std::string& to) {
    std::string text = h200_yaml;
    text.replace(text.find(from), from.size(), to);
    return text;
  };
  const std::string slow = edited("clock_mhz: 1830", "clock_mhz: 1200");  // other numbers, name h200
  std::string warning = "not cleared";

  // The shipped profile (also under a --cu-count partition): its name, no warning.
  CHECK(vllm_device_name(load_profile("h200").hw, &warning) == "NVIDIA_H200");
  CHECK(warning.empty());
  Hardware partition = load_profile("h200").hw;
  use_cu_count(partition, 66);
  CHECK(vllm_device_name(partition, &warning) == "NVIDIA_H200");
  CHECK(warning.empty());

  // A file named h200: the name, and one line saying the file's name was mapped to it.
  warning = "not cleared";
  const Hardware copy = parse_profile(slow, "/tmp/my-h200.yaml").hw;
  CHECK(vllm_device_name(copy, &warning) == "NVIDIA_H200");
  CHECK(warning ==
        "/tmp/my-h200.yaml: profile name 'h200' is mapped to the shipped h200's vLLM device name, NVIDIA_H200, whatever "
        "this file's numbers: list \"NVIDIA_H200\" under its aliases: to say so, or give --vllm-device-name");
  CHECK(vllm_device_name(copy) == "NVIDIA_H200");  // no warning asked for: the same name

  // The file says which GPU it is: its aliases list the name exactly as vLLM spells it.
  const std::string said_aliases = "aliases: [\"NVIDIA H200\", \"H200\", \"NVIDIA_H200\"]";
  Profile said = parse_profile(slow, "/tmp/my-h200.yaml");
  said.hw.aliases.push_back("NVIDIA_H200");
  CHECK(vllm_device_name(said.hw, &warning) == "NVIDIA_H200");
  CHECK(warning.empty());
  CHECK(vllm_device_name(parse_profile(edited(aliases, said_aliases), "mine.yaml").hw, &warning) == "NVIDIA_H200");
  CHECK(warning.empty());
  // ... also under a name no shipped profile has; torch's spelling ("NVIDIA H200") is not vLLM's.
  Hardware own = parse_profile(edited("name: h200", "name: my-gpu"), "mine.yaml").hw;
  CHECK_THROWS_WITH(vllm_device_name(own, &warning), Catch::Contains("--vllm-device-name"));
  own.aliases.push_back("AMD_Instinct_MI300X");
  CHECK(vllm_device_name(own, &warning) == "AMD_Instinct_MI300X");
  // ... said when the file's figures are not that GPU's (the H200's 132 SMs, the MI300X's 304 CUs:
  // profiles/mi300x.yaml; an L40S profile listing NVIDIA_H200 went unsaid: a fresh user's find).
  CHECK(warning == "mine.yaml: aliases list AMD_Instinct_MI300X, the shipped mi300x's vLLM device name, but the "
                   "file's figures are another GPU's (132 SMs against 304): vLLM on the mi300x would read these configs");
  own.aliases.push_back("NVIDIA_H200");  // two GPUs: not a word the tool can take
  CHECK_THROWS_WITH(vllm_device_name(own, &warning),
                    Catch::Contains("aliases list several vLLM device names (NVIDIA_H200, AMD_Instinct_MI300X)"));
}

TEST_CASE("vLLM's M grid is the tuner's", "[emit][vllm]") {
  const std::vector<std::int64_t> want = {1, 2, 4, 8, 16, 24, 32, 48, 64, 96, 128, 256, 512, 1024, 1536, 2048, 3072, 4096};
  CHECK(vllm_default_m_values() == want);
}

TEST_CASE("vLLM's block FP8 space is its tuner's, pruned and with GROUP_SIZE_M collapsed", "[emit][vllm][targets]") {
  const Profile hw = load_profile("h200");
  const Target& t = vllm_fp8_block_target();
  GemmProblem p = parse_shape("4096x7168x16384");
  p.dtype = Dtype::fp8;
  std::vector<TileConfig> space;
  t.candidates(p, hw, space);
  REQUIRE_FALSE(space.empty());
  for (const TileConfig& c : space) {
    CHECK(c.split_k == 1);
    CHECK(kVllmFp8QuantBlock % c.block_k == 0);  // one scale per K-step
    CHECK((c.block_k == 64 || c.block_k == 128));
    CHECK((c.num_warps == 4 || c.num_warps == 8));
    CHECK((c.num_stages >= 2 && c.num_stages <= 5));
    CHECK((c.group_m == 1 || c.group_m == 16 || c.group_m == 32 || c.group_m == 64));
    CHECK(t.infeasibility(c, p, hw).empty());
  }
  // M = 4096: 4096 / 16 = 256 tile rows even for the smallest BLOCK_SIZE_M, so all four GROUP_SIZE_M
  // map the grid differently; M = 64 with BLOCK_SIZE_M 64 is one tile row, where every G maps alike.
  auto count_groups = [&](std::int64_t m, int bm) {
    GemmProblem q = p;
    q.m = m;
    std::vector<TileConfig> s;
    t.candidates(q, hw, s);
    std::set<int> groups;
    for (const TileConfig& c : s)
      if (c.block_m == bm && c.block_n == 128 && c.block_k == 128 && c.num_warps == 4 && c.num_stages == 3)
        groups.insert(c.group_m);
    return groups.size();
  };
  CHECK(count_groups(4096, 16) == 4);
  CHECK(count_groups(64, 64) == 1);
  CHECK(count_groups(64, 16) == 2);  // 4 tile rows: G = 1 differs from G >= 16, which all cover them
  // BLOCK_SIZE_M beyond the next power of two of M only pads: M = 1 keeps BLOCK_SIZE_M 16.
  GemmProblem decode = p;
  decode.m = 1;
  t.candidates(decode, hw, space);
  for (const TileConfig& c : space) CHECK(c.block_m == 16);
  // The problem must be what the kernel computes: fp8, x W^T, 2-D.
  GemmProblem bf16 = p;
  bf16.dtype = Dtype::bf16;
  CHECK_THAT(t.problem_error(bf16, hw), Catch::Contains("takes fp8"));
  GemmProblem nn = p;
  nn.layout = parse_layout("NN");
  CHECK_THAT(t.problem_error(nn, hw), Catch::Contains("layout NT"));
  CHECK_THAT(t.problem_error(p, load_profile("a100")), Catch::Contains("no fp8"));
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
  // A directory that takes no new file although it looks writable (procfs: creating fails with
  // ENOENT, which alone read as "No such file or directory" of a path that exists): said as what failed.
  // A read-only directory does the same for a user that is not root.
  if (fs::is_regular_file("/proc/version"))
    CHECK_THROWS_WITH(write_file_atomically("/proc/version", "x"),
                      Catch::Contains("/proc/version: cannot write: cannot create a file in /proc ("));
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

TEST_CASE("a config directory's sidecar follows a long run: written files listed as written", "[emit][files]") {
  // A run of 1,500 files killed after 1,001 left all 1,500 "written": false (the sidecar was
  // rewritten only at the end; noticed 2026-12-05). With a refresh interval of 0 the sidecar is
  // rewritten after every file, before the `written` callback: there, every file so far is listed
  // without the flag and the files still to come with "written": false.
  TempDir dir;
  const nlohmann::json run = {{"hardware", "h200"}, {"target", "vllm-fp8-block"}};
  const std::vector<std::pair<std::string, std::string>> files = {{"a.json", "{}\n"}, {"b.json", "{}\n"}, {"c.json", "{}\n"}};
  std::vector<std::string> seen;
  bool consistent = true;
  const std::string sidecar = write_config_directory(
      dir.path.string(), files, run, false,
      [&](const std::string& path) {
        seen.push_back(fs::path(path).filename().string());
        std::ifstream in(dir.path / "gemm-advisor-generator.json");
        const nlohmann::json side = nlohmann::json::parse(in);
        for (const auto& [name, text] : files) {
          const bool done = std::find(seen.begin(), seen.end(), name) != seen.end();
          const nlohmann::json& entry = side.at("files").at(name);
          consistent = consistent && (done ? !entry.contains("written") : entry.at("written") == false);
        }
      },
      nullptr, std::chrono::milliseconds(0));
  CHECK(seen.size() == 3);
  CHECK(consistent);
  std::ifstream in(sidecar);
  const nlohmann::json side = nlohmann::json::parse(in);
  CHECK(side.at("files").size() == 3);
  CHECK_FALSE(side.at("files").at("b.json").contains("written"));
}
