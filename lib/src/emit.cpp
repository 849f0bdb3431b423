#include "gemm_advisor/emit.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <charconv>
#include <chrono>
#include <csignal>
#include <cstring>
#include <exception>
#include <filesystem>
#include <functional>
#include <random>
#include <set>
#include <string_view>
#include <utility>

#include "gemm_advisor/error.hpp"
#include "gemm_advisor/hardware.hpp"
#include "gemm_advisor/report.hpp"
#include "gemm_advisor/targets/vllm_fp8_block.hpp"
#include "gemm_advisor/targets/vllm_fused_moe.hpp"
#include "gemm_advisor/version.hpp"
#include "text.hpp"

namespace gemm_advisor {

// --- a target's own parameter names --------------------------------------------------------------

bool is_triton_launch_option(std::string_view name) {
  for (std::string_view rest = kTritonLaunchOptions; !rest.empty();) {
    const std::size_t comma = std::min(rest.find(", "), rest.size());
    if (rest.substr(0, comma) == name) return true;
    rest = comma == rest.size() ? std::string_view() : rest.substr(comma + 2);
  }
  return false;
}

ParameterNames parse_parameter_names(std::string_view text, const Target& target) {
  // num_warps and num_stages are triton.Config's own arguments, not the kernel's: renamed, the
  // README's autotune snippet (c["num_warps"]) broke; Python's names= refuses them too.
  auto configs_own = [](const TargetParameter& p) { return p.field == "num_warps" || p.field == "num_stages"; };
  std::string known;
  for (const TargetParameter& p : target.info().parameters)
    if (!configs_own(p)) known += (known.empty() ? "" : ", ") + std::string(p.name);
  const std::string help = " (give FROM=TO pairs, FROM among " + known + " or the field names; FROM= leaves it out)";
  auto fail = [&](const std::string& what) -> void {
    throw InputError("--names '" + printable(text) + "': " + what + help);
  };
  // A kernel parameter's name: an identifier, as Python's gemm_advisor.triton checks it (a leading
  // digit, '1x', was written into the configs: a fresh user's find, 2026-12-04).
  auto valid_name = [](std::string_view n) {
    return !n.empty() && !(n.front() >= '0' && n.front() <= '9') && std::all_of(n.begin(), n.end(), [](char ch) {
      return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_';
    });
  };
  ParameterNames names;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string_view pair = text.substr(start, comma - start);
    const std::size_t eq = pair.find('=');
    if (eq == std::string_view::npos) fail("'" + printable(pair) + "' has no '='");
    const std::string_view from = pair.substr(0, eq), to = pair.substr(eq + 1);
    // FROM is the target's own name (BLOCK_SIZE_M) or the advisor's field name (block_m), as
    // Python's names= keys are.
    const auto& params = target.info().parameters;
    const auto param = std::find_if(params.begin(), params.end(),
                                    [&](const TargetParameter& p) { return p.name == from || p.field == from; });
    if (param == params.end()) {
      // Leaving out what this kernel does not have is no change (Python's names={"split_k": None}
      // on triton-tutorial; --names SPLIT_K= there was refused: a fresh user's find, 2026-12-04);
      // renaming it is a slip.
      const bool elsewhere = std::any_of(all_targets().begin(), all_targets().end(), [&](const Target* t) {
        const auto& ps = t->info().parameters;
        return std::any_of(ps.begin(), ps.end(), [&](const TargetParameter& p) { return p.name == from || p.field == from; });
      });
      if (elsewhere && to.empty()) {
        start = comma + 1;
        continue;
      }
      fail("'" + printable(from) + "' is not a parameter of " + std::string(target.name()));
    }
    if (configs_own(*param))
      fail("'" + printable(from) + "' is triton.Config's own argument and cannot be renamed");
    // FROM= (nothing after '=') leaves the parameter out, as Python's names={field: None}: a kernel
    // without SPLIT_K or GROUP_M. Never a block size: the configs would lose their tile and two of
    // them could be written alike (BLOCK_M= was taken: a fresh user's find, 2026-12-04).
    if (to.empty() && (param->field == "block_m" || param->field == "block_n" || param->field == "block_k"))
      fail("'" + printable(from) + "' is a block size, which every kernel has: it can be renamed, not left out");
    if (!to.empty() && !valid_name(to))
      fail("'" + printable(to) + "' is not a name (letters, digits, '_', not starting with a digit)");
    // Names triton.Config or a kernel launch takes as its own (renamed onto, a config's kernel argument
    // would be read as that option: a fresh user's find, 2026-12-07, num_ctas and pre_hook accepted).
    if (is_triton_launch_option(to))
      fail("'" + printable(to) + "' is an argument of triton.Config or of the launch (" +
           std::string(kTritonLaunchOptions) + "), not a kernel parameter's name");
    if (!names.emplace(std::string(param->name), std::string(to)).second)
      fail("'" + printable(param->name) + "' is renamed twice");
    start = comma + 1;
  }
  // The names written must stay distinct: no rename onto a name another parameter keeps or gets.
  std::set<std::string, std::less<>> written;
  for (const TargetParameter& p : target.info().parameters) {
    const auto it = names.find(p.name);
    const std::string out = it == names.end() ? std::string(p.name) : it->second;
    if (out.empty()) continue;  // left out
    if (!written.insert(out).second) fail("two parameters would both be written as '" + printable(out) + "'");
  }
  return names;
}

nlohmann::ordered_json config_json(const Target& target, const TileConfig& c, const ParameterNames& names) {
  nlohmann::ordered_json j;
  for (const TargetParameter& p : target.info().parameters) {
    const auto it = names.find(p.name);
    if (it != names.end() && it->second.empty()) continue;  // left out (FROM=)
    j[it == names.end() ? std::string(p.name) : it->second] = config_field(c, p.field);
  }
  return j;
}

nlohmann::ordered_json configs_json(const Target& target, const std::vector<RankedConfig>& ranked, std::size_t top,
                                    const ParameterNames& names) {
  nlohmann::ordered_json configs = nlohmann::ordered_json::array();
  // A field left out (--names GROUP_SIZE_M=) makes configs that differed only there alike: each is
  // written once, at its best place (8 configs held 6 distinct ones: a fresh user's find, 2026-12-04).
  // Without one they are distinct by construction, and not compared (a --top 0 list is quadratic).
  const bool left_out = std::any_of(names.begin(), names.end(), [](const auto& n) { return n.second.empty(); });
  std::set<std::string> written;
  for (const RankedConfig& r : ranked) {
    // Feasible entries come first in a ranking (ranker.hpp): the first infeasible one ends them.
    if (!r.estimate.feasible || (top != 0 && configs.size() >= top)) break;
    nlohmann::ordered_json c = config_json(target, r.config, names);
    if (left_out && !written.insert(c.dump()).second) continue;
    configs.push_back(std::move(c));
  }
  return configs;
}

nlohmann::ordered_json emit_json(const Target& target, const GemmProblem& p, const Hardware& hw, const std::string& name,
                                 const std::vector<RankedConfig>& ranked, std::size_t top, const ParameterNames& names) {
  nlohmann::ordered_json j;
  if (!name.empty()) j["name"] = name;
  j["m"] = p.m;
  j["n"] = p.n;
  j["k"] = p.k;
  j["batch"] = p.batch;
  j["dtype"] = dtype_name(p.dtype);
  j["layout"] = p.layout.name();
  j["configs"] = configs_json(target, ranked, top, names);
  j["hardware"] = hardware_label(hw);
  j["cu_count"] = hw.cu_count;  // as a number too: the label's "(66 of 132 CUs)" is text
  j["profile"] = profile_source_text(hw);  // embedded:NAME or the file's absolute path (a calibrated overlay)
  j["profile_digest"] = hw.source_digest;  // its content: the path differs between checkouts
  j["target"] = std::string(target.name());
  j["generator"] = {{"name", "gemm-advisor"}, {"version", version()}, {"commit", git_commit()},
                    {"model_digest", model_digest()}};
  return j;
}

// --- vLLM -----------------------------------------------------------------------------------------

const std::vector<std::int64_t>& vllm_default_m_values() {
  static const std::vector<std::int64_t> values = {1,   2,   4,   8,    16,   24,   32,   48,   64,
                                                   96,  128, 256, 512,  1024, 1536, 2048, 3072, 4096};
  return values;
}

namespace {

// vLLM's spelling of each shipped profile's device: current_platform.get_device_name() with spaces
// replaced by underscores (fp8_utils.py, get_w8a8_block_fp8_configs). Checked against the file names
// vLLM ships under vllm/model_executor/layers/quantization/utils/configs/ and the device-id table of
// vllm/platforms/rocm.py:
//  - NVIDIA names are NVML's (torch.cuda.get_device_name()):
//    "N=2112,K=7168,device_name=NVIDIA_H200,dtype=fp8_w8a8,block_shape=[128,128].json",
//    "N=12288,K=7168,device_name=NVIDIA_H100_80GB_HBM3,dtype=fp8_w8a8,block_shape=[128,128].json"
//    (H100 SXM5 80GB), "N=1536,K=1536,device_name=NVIDIA_A100-SXM4-80GB,dtype=int8_w8a8,..." (A100 SXM4
//    80GB), and NVIDIA_B200 in vLLM's fused-MoE configs ("E=128,N=704,device_name=NVIDIA_B200,
//    dtype=fp8_w8a8.json"), which take the name from the same call.
//  - AMD names come from _ROCM_DEVICE_ID_NAME_MAP in vllm/platforms/rocm.py: 0x74a1 -> AMD_Instinct_MI300X,
//    0x74a5 (and its VF 0x74b9) -> AMD_Instinct_MI325X, 0x75a0 -> AMD_Instinct_MI350X, 0x75a3 ->
//    AMD_Instinct_MI355X; "N=1536,K=7168,device_name=AMD_Instinct_MI300X,dtype=fp8_w8a8,block_shape=
//    [128,128].json" is a shipped file, as are "E=8,N=7168,device_name=AMD_Instinct_MI325X.json" (fused
//    MoE) and "N=1536,K=7168,device_name=AMD_Instinct_MI325X,dtype=fp8_w8a8,block_shape=[128,128].json"
//    (../shared/ref/public/vllm_fused_moe_configs.csv, vllm_fp8_block_gemm_configs.csv).
struct VllmDeviceName {
  const char* profile;
  const char* device_name;
};
constexpr VllmDeviceName kVllmDeviceNames[] = {
    {"a100", "NVIDIA_A100-SXM4-80GB"},  {"h100", "NVIDIA_H100_80GB_HBM3"}, {"h200", "NVIDIA_H200"},
    {"b200", "NVIDIA_B200"},            {"mi300x", "AMD_Instinct_MI300X"}, {"mi325x", "AMD_Instinct_MI325X"},
    {"mi350x", "AMD_Instinct_MI350X"},  {"mi355x", "AMD_Instinct_MI355X"},
};

}  // namespace

std::string vllm_file_name_form(std::string_view name) {
  std::string out;
  bool in_run = false;  // the last character was whitespace or '/'
  for (const char ch : name) {
    const bool sep = ch == '/' || std::isspace(static_cast<unsigned char>(ch));
    if (!sep) out += ch;
    else if (!in_run) out += '_';
    in_run = sep;
  }
  return out;
}

namespace {
// A bandwidth for a message: "4.8 TB/s".
std::string text_of_rate(double bytes_per_s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g TB/s", bytes_per_s / 1e12);
  return buf;
}

// How `hw`'s figures differ from the shipped profile `shipped_name`'s ("142 SMs against 132", "DRAM
// 0.864 TB/s against 4.8 TB/s"), or "" where its product's SMs agree and its DRAM bandwidth is within
// 5% (a calibrated or renamed copy of that GPU's profile keeps both).
std::string figures_differ(const Hardware& hw, const std::string& shipped_name) {
  const Hardware shipped = load_profile(shipped_name).hw;
  const std::string units = hw.vendor == "amd" ? " CUs" : " SMs";
  if (shipped.product_cu_count != hw.product_cu_count)
    return std::to_string(hw.product_cu_count) + units + " against " + std::to_string(shipped.product_cu_count);
  if (std::abs(shipped.dram_bandwidth_bytes_per_s / hw.dram_bandwidth_bytes_per_s - 1.0) > 0.05)
    return "DRAM " + text_of_rate(hw.dram_bandwidth_bytes_per_s) + " against " +
           text_of_rate(shipped.dram_bandwidth_bytes_per_s);
  return "";
}
}  // namespace

std::string vllm_device_name(const Hardware& hw, std::string* warning) {
  if (warning) warning->clear();
  const char* by_name = nullptr;
  for (const VllmDeviceName& d : kVllmDeviceNames) {
    if (hw.name == d.profile) by_name = d.device_name;
  }
  // A shipped profile (also under --cu-count, or named by one of its aliases): its GPU's name.
  if (by_name && hw.source == "embedded:" + hw.name) return by_name;
  // A profile from a file: its numbers may be another GPU's, whatever its name. A vLLM name listed
  // among its aliases, exactly as vLLM spells it, is the file saying which GPU it is.
  std::vector<std::string> listed;
  for (const VllmDeviceName& d : kVllmDeviceNames) {
    if (std::find(hw.aliases.begin(), hw.aliases.end(), d.device_name) != hw.aliases.end())
      listed.emplace_back(d.device_name);
  }
  if (listed.size() > 1)
    throw InputError(escape_control(hw.source) + ": aliases list several vLLM device names (" + listed[0] + ", " +
                     listed[1] + "): give --vllm-device-name");
  if (listed.size() == 1) {
    // The alias claims a shipped GPU: said when the file's figures are not that GPU's (an L40S
    // profile listing NVIDIA_H200 wrote its configs as the H200's unsaid: a fresh user's find,
    // 2026-12-05). Its product's SMs and DRAM bandwidth are compared (a calibrated copy keeps both).
    for (const VllmDeviceName& d : kVllmDeviceNames) {
      if (warning == nullptr || listed.front() != d.device_name || hw.name == d.profile) continue;
      const std::string differs = figures_differ(hw, d.profile);
      if (!differs.empty())
        *warning = escape_control(hw.source) + ": aliases list " + d.device_name + ", the shipped " + d.profile +
                   "'s vLLM device name, but the file's figures are another GPU's (" + differs +
                   "): vLLM on the " + d.profile + " would read these configs";
    }
    return listed.front();
  }
  // A GPU vLLM's table does not know (a hypothetical MI308X): an alias that is another alias in
  // vLLM's file-name form (get_device_name_as_file_name: each run of whitespace and '/' one '_'),
  // e.g. aliases ["AMD Instinct MI308X", "AMD_Instinct_MI308X"], names it (only the shipped names
  // counted: a fresh AMD user's find, 2026-12-05).
  std::vector<std::string> own;
  for (const std::string& alias : hw.aliases) {
    const std::string file_form = vllm_file_name_form(alias);
    if (file_form != alias && std::find(hw.aliases.begin(), hw.aliases.end(), file_form) != hw.aliases.end() &&
        std::find(own.begin(), own.end(), file_form) == own.end())
      own.push_back(file_form);
  }
  if (own.size() > 1)
    throw InputError(escape_control(hw.source) + ": aliases list several names in vLLM's form (" + own[0] + ", " +
                     own[1] + "): give --vllm-device-name");
  if (own.size() == 1) return own.front();
  if (by_name) {
    if (warning)
      *warning = escape_control(hw.source) + ": profile name '" + hw.name + "' is mapped to the shipped " + hw.name +
                 "'s vLLM device name, " + by_name + ", whatever this file's numbers: list \"" + by_name +
                 "\" under its aliases: to say so, or give --vllm-device-name";
    return by_name;
  }
  // Named with its file, and an example of its own vendor (an AMD profile was told NVIDIA_H200: a
  // fresh user's find, 2026-12-04).
  throw InputError(escape_control(hw.source) + ": profile '" + hw.name +
                   "' has no known vLLM device name: give --vllm-device-name (the name in vLLM's "
                   "'Config file not found at ...' warning, e.g. " +
                   (hw.vendor == "amd" ? "AMD_Instinct_MI300X" : "NVIDIA_H200") + ")");
}

std::string vllm_market_name_note(const Hardware& hw, std::string_view hw_given, const std::string& device_name) {
  if (hw.vendor != "amd" || hw.source != "embedded:" + hw.name) return "";
  const std::string given = text::trim(hw_given);
  // Market names start with the brand (amd-smi's market_name, rocm-smi's Card Series); "MI355X" or
  // "mi355x" is the profile's own short name, not one vLLM would print.
  // vLLM's own spelling (AMD_Instinct_MI355_OAM, README's example) as well as the tools' (spaces):
  // the underscore form went unsaid (a fresh user's find, 2026-12-06).
  std::string brand = text::lower(given);
  std::replace(brand.begin(), brand.end(), '_', ' ');
  if (brand.rfind("amd instinct", 0) != 0) return "";
  const std::string form = vllm_file_name_form(given);
  if (form == device_name) return "";
  std::string resolved;
  try {
    resolved = resolve_profile_name(given);
  } catch (const InputError&) {
    return "";
  }
  if (resolved != hw.name) return "";
  return "--hw '" + printable(given) + "' is the market name some ROCm versions report: the files are named " +
         device_name + ", vLLM's name for the " + hw.name + "'s device id; a vLLM without that id in its table " +
         "looks them up as " + form + " (give --vllm-device-name '" + form + "' for it)";
}

std::string vllm_device_vendor_warning(const Hardware& hw, const std::string& device_name, bool rocm_keys,
                                       bool given) {
  // How the name came: the flag, or the profile (a warning named a --vllm-device-name never given: a
  // fresh user's find, 2026-12-07).
  const std::string name_said =
      given ? "--vllm-device-name " + device_name : "the vLLM device name " + device_name + " (the profile's)";
  // The vendor prefix in any case ("nvidia_h100" under an AMD profile was not said: a fresh user's find).
  const std::string lowered = text::lower(device_name);
  const auto starts = [&](const char* prefix) { return lowered.rfind(prefix, 0) == 0; };
  const std::string named = starts("nvidia_") ? "nvidia" : starts("amd_") ? "amd" : "";
  if (!named.empty() && named != hw.vendor)
    return name_said + " is an " + (named == "amd" ? "AMD" : "NVIDIA") + " GPU, but " +
           hw.name + " (" + hw.display_name + ") is " + (hw.vendor == "amd" ? "AMD's" : "NVIDIA's") +
           ": vLLM on that GPU would read configs ranked for another" +
           (hw.vendor == "amd" && rocm_keys ? " (with ROCm launch keys, which CUDA's launcher refuses)" : "") +
           " (give the --hw of the GPU the files are for)";
  // Another GPU of the same vendor that a shipped profile describes (H200 configs under the H100's
  // name were written unsaid: a fresh user's find, 2026-12-04).
  std::string own;
  try {
    own = vllm_device_name(hw, nullptr);
  } catch (const InputError&) {
    own.clear();  // a profile of no known GPU: the name given is the only one
  }
  // Also under a profile of a GPU no shipped profile names (an L40S profile's configs written as
  // NVIDIA_H200's went unsaid: a fresh user's find, 2026-12-05).
  for (const VllmDeviceName& d : kVllmDeviceNames) {
    if (device_name != d.device_name || device_name == own) continue;
    // A profile of no known vLLM name: said where its figures are not that GPU's (a renamed copy
    // of the H200's given NVIDIA_H200 is the H200).
    std::string differs;
    if (own.empty()) {
      if (hw.name == d.profile || (differs = figures_differ(hw, d.profile)).empty()) continue;
      differs = " (" + differs + ")";
    }
    return name_said + " is the " + d.profile + "'s, but the configs are ranked for " +
             hw.name + " (" + hw.display_name + ")" + differs + ": vLLM on the " + d.profile +
             " would read them (rank them on its profile)";
  }
  // A known GPU's name spelt otherwise: a short name ("H100": torch names every GPU with its vendor
  // first) or another case (a lowercase file name). vLLM looks its files up by the exact device name,
  // so they would never be read (fresh users' finds, 2026-12-04). A variant's own name
  // (NVIDIA_H100_PCIe) is left alone.
  const std::string named_profile = named.empty() ? resolve_profile_name(device_name) : std::string();
  for (const VllmDeviceName& d : kVllmDeviceNames) {
    const bool other_case = device_name != d.device_name && lowered == text::lower(d.device_name);
    if (other_case || named_profile == d.profile)
      return name_said + " names the " + d.profile + ", whose files vLLM looks up as " +
             d.device_name + " (exactly): these would not be read";
  }
  // Another name under a shipped profile, whose figures are that one GPU's: a variant (H100 PCIe, H200
  // NVL) has other SMs, clocks or memory (SXM figures went unsaid into NVIDIA_H100_PCIe's files: a
  // fresh vLLM user's find, 2026-12-05). A user's own profile may describe the GPU it names.
  if (!own.empty() && device_name != own && hw.source == "embedded:" + hw.name)
    return name_said + " is not the " + hw.name + "'s (" + own + "): the configs are " +
           "ranked with the shipped " + hw.name + " profile's figures (" + hw.display_name + "), and vLLM reads " +
           "them on the GPU named so (a variant has other SMs, clocks or memory: " + own_profile_advice(hw.name) + ")";
  return "";
}

std::string vllm_config_file_name(std::int64_t n, std::int64_t k, const std::string& device_name) {
  return "N=" + std::to_string(n) + ",K=" + std::to_string(k) + ",device_name=" + device_name +
         ",dtype=fp8_w8a8,block_shape=[" + std::to_string(kVllmFp8QuantBlock) + "," +
         std::to_string(kVllmFp8QuantBlock) + "].json";
}

void require_vllm_block_fp8(const Hardware& hw) {
  if (hw.rate(Dtype::fp8)) return;
  throw InputError("--emit vllm: " + hw.name + " (" + hw.display_name +
                   ") has no fp8 matrix path, so vLLM's block FP8 GEMM cannot run on it");
}

std::string vllm_config_file_text(const std::map<std::int64_t, TileConfig>& best_by_m) {
  constexpr int kIndent = 4;  // vLLM's tuner: json.dump(configs, f, indent=4)
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  for (const auto& [m, config] : best_by_m) j[std::to_string(m)] = config_json(vllm_fp8_block_target(), config);
  return json_text(j, kIndent) + "\n";
}

std::string vllm_moe_config_file_text(const std::map<std::int64_t, TileConfig>& best_by_m, const Hardware& hw,
                                      const std::string& vllm_dtype) {
  constexpr int kIndent = 4;  // benchmark_moe.py's save_configs: json.dump(configs, f, indent=4)
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  for (const auto& [m, config] : best_by_m) {
    nlohmann::ordered_json c = config_json(vllm_fused_moe_target(), config);
    if (hw.vendor == "amd") {
      // The ROCm kernel's launch keys, at the values most of vLLM's shipped MI300X files hold (285
      // of their 612 entries: ../shared/ref/public/vllm_fused_moe_configs.csv); the model does not
      // rank them. The MFMA keys for 16-bit layers only, as vLLM's ROCm tuner writes them (its fp8
      // entries were given them: a fresh user's find, 2026-12-04).
      c["waves_per_eu"] = kRocmWavesPerEu;
      if (vllm_dtype.empty()) {
        c["matrix_instr_nonkdim"] = kRocmMatrixInstrNonKDim;
        // Not on gfx950: Triton's AMD backend (compiler.py, HIPOptions) warns that kpack is
        // deprecated there and sets it to 1 on every compile; vLLM's gfx950 files hold no kpack.
        if (hw.isa != "gfx950") c["kpack"] = kRocmKpack;
      }
    }
    j[std::to_string(m)] = c;
  }
  return json_text(j, kIndent) + "\n";
}

// --- files ----------------------------------------------------------------------------------------

namespace {

// Only a regular file may be replaced: `path` (a link already followed) is refused, named as
// `shown`, when something else stands there.
void refuse_non_regular(const std::string& path, const std::string& shown) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
    throw InputError(shown + ": cannot write: it exists and is not a regular file (a directory, device or pipe)");
}

}  // namespace

namespace {
std::pair<std::string, int> create_temporary_beside(const std::string& path, std::string* previous = nullptr);  // below
void note_active_temporary(const std::string& tmp);                                                          // below
std::string replaceable_path(const std::string& path_given);                  // below
}  // namespace

void check_writable_path(const std::string& path) {
  refuse_non_regular(path, path);
  // What the writer would refuse after the fit: a link to nowhere (replaceable_path), a name longer
  // than a file system takes (the rename failed "File name too long": a fresh user's finds, 2026-12-07).
  const std::string written = replaceable_path(path);
  if (const std::string name = std::filesystem::path(path).filename().string(); name.size() > 255)
    throw InputError(path.substr(0, 80) + "...: cannot write: the file name is " + std::to_string(name.size()) +
                     " bytes, more than the 255 a file system takes");
  struct stat st {};
  std::string dir = std::filesystem::path(path).parent_path().string();
  if (dir.empty()) dir = ".";
  if (::stat(dir.c_str(), &st) != 0) throw InputError(path + ": cannot write: " + dir + ": " + std::strerror(errno));
  if (!S_ISDIR(st.st_mode)) throw InputError(path + ": cannot write: " + dir + " is not a directory");
  if (::access(dir.c_str(), W_OK) != 0) throw InputError(path + ": cannot write: " + dir + ": " + std::strerror(errno));
  // The write itself, tried: root passes access() on a read-only file system or under /sys, where the
  // file is then refused after the fit (a fresh user's find, 2026-12-07). The temporary file the
  // writer would create, created and removed (the same error text as the writer's).
  std::string previous;
  const auto [tmp, fd] = create_temporary_beside(written, &previous);
  ::close(fd);
  ::unlink(tmp.c_str());
  note_active_temporary(previous);
}

namespace {
// Where write_file_atomically would write path_given: the path, or the regular file a link there
// names. Throws InputError for what it would refuse (a link to nowhere, a device, a directory, a pipe).
std::string replaceable_path(const std::string& path_given) {
  std::string path = path_given;
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode)) {
    std::error_code ec;
    const std::filesystem::path target = std::filesystem::canonical(path, ec);
    if (ec) throw InputError(path_given + ": cannot write: a link to nowhere (" + ec.message() + ")");
    path = target.string();
  }
  refuse_non_regular(path, path_given);
  // A file its user may not write is not replaced by a rename either: a 0444 results file, or one
  // another user owns, was swapped for this user's (a fresh CI user's find, 2026-12-05). Root may
  // write any file, as a shell redirection would.
  if (::access(path.c_str(), F_OK) == 0 && ::access(path.c_str(), W_OK) != 0)
    throw InputError(path_given + ": cannot write: " + std::strerror(errno) + " (a file you may not write is not replaced)");
  return path;
}
}  // namespace

// write_file_atomically's temporary files: PREFIX PID.N SUFFIX beside the file it replaces
// (remove_stale_temporaries reads the PID back).
constexpr std::string_view kTemporaryPrefix = ".gemm-advisor.";
constexpr std::string_view kTemporarySuffix = ".tmp";

namespace {
constexpr mode_t kFileMode = 0644;  // rw-r--r--, less the umask: an ordinary data file

void remove_stale_temporaries(const std::string& dir);  // below, with the config directories

// The temporary file of the AtomicFile being written, for remove_active_temporary (a signal handler):
// a fixed buffer, read with no allocation.
char g_active_temporary[4096] = {};
std::atomic<bool> g_has_active_temporary{false};

void note_active_temporary(const std::string& tmp) {
  g_has_active_temporary = false;
  if (tmp.empty() || tmp.size() >= sizeof g_active_temporary) return;
  std::memcpy(g_active_temporary, tmp.c_str(), tmp.size() + 1);
  g_has_active_temporary = true;
}

// A temporary file beside `path` (the path replaceable_path gives), open for writing: its name and
// descriptor. A name no other writer uses: this process's id and a per-process count (O_EXCL checks
// it), under a short name (the target's name plus a suffix could pass the 255-byte name limit a name
// near it leaves: a fresh user's find, 2026-12-04).
std::pair<std::string, int> create_temporary_beside(const std::string& path, std::string* previous) {
  static std::atomic<unsigned> counter{0};
  // Noted for the signal handlers before it is created, so that a signal during or right after the
  // open removes it (a run stopped by Ctrl-C left an empty one in about one try in two: a fresh
  // user's find, 2026-12-07); the name is this process's (its id and count), and the note goes
  // back to the earlier one where no file was created. Left noted on success: `previous` gets the
  // earlier note, for the caller to put back when the file is gone or in place.
  const std::string noted_before = g_has_active_temporary ? std::string(g_active_temporary) : std::string();
  if (previous) *previous = noted_before;
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  auto name = [&](unsigned long n) {
    return (parent / (std::string(kTemporaryPrefix) + std::to_string(::getpid()) + "." + std::to_string(n) +
                      std::string(kTemporarySuffix)))
        .string();
  };
  std::string tmp = name(counter++);
  note_active_temporary(tmp);
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, kFileMode);
  // The name taken: a run in another PID namespace sharing the folder (containers mostly run the tool
  // as the same PID), or a killed one's leftover under a PID alive here; each blocked every later run
  // into the folder (a fresh CI user's find, 2026-12-05). Random counts then, a few tries.
  if (fd < 0 && errno == EEXIST) {
    std::random_device random;
    for (int attempt = 0; attempt < 16 && fd < 0 && errno == EEXIST; ++attempt) {
      note_active_temporary(noted_before);  // the taken name is another writer's: never removed here
      tmp = name((static_cast<unsigned long>(random()) << 16) ^ random());
      note_active_temporary(tmp);
      fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, kFileMode);
    }
  }
  // Held locked while the writer lives: remove_stale_temporaries takes a temporary it can lock for a
  // dead writer's, which holds across PID namespaces where the PID alone does not (a run in another
  // container sharing the folder removed a live run's file: a fresh CI user's find, 2026-12-05).
  if (fd >= 0) (void)::flock(fd, LOCK_EX | LOCK_NB);
  // Said as what failed: the temporary file beside it (under /proc, creating one fails with ENOENT,
  // which alone read as if the path were missing: a fresh user's find).
  if (fd < 0) {
    const int error = errno;
    note_active_temporary(noted_before);
    // "." for a name with no folder ("cannot create a file in  (Too many open files)": a fresh CI
    // reviewer's find, 2026-12-05).
    const std::string folder = std::filesystem::path(tmp).parent_path().lexically_normal().string();
    throw InputError(path + ": cannot write: cannot create a file in " + (folder.empty() ? "." : folder) + " (" +
                     std::strerror(error) + ")");
  }
  return {tmp, fd};
}

// An atomic write that failed at step `what`: errno's reason kept, `fd` closed (unless -1), the
// temporary removed, and InputError naming `path` and the step.
[[noreturn]] void abandon_temporary(int fd, const std::string& tmp, const std::string& path, const char* what) {
  const std::string reason = std::strerror(errno);
  if (fd >= 0) ::close(fd);
  ::unlink(tmp.c_str());
  throw InputError(path + ": cannot write (" + what + "): " + reason);
}

// The end of an atomic write: `fd` (the temporary's, written) synced and closed, the temporary
// renamed over `path`. On failure the temporary is removed and InputError names `path` and the step.
void sync_and_rename(int fd, const std::string& tmp, const std::string& path) {
  auto fail = [&](const char* what, bool close_fd) { abandon_temporary(close_fd ? fd : -1, tmp, path, what); };
  // A file replaced keeps its permission bits (a 0600 results file came back 0644: a fresh CI
  // user's find, 2026-12-05); a new one has kFileMode less the umask.
  struct stat old {};
  if (::stat(path.c_str(), &old) == 0 && S_ISREG(old.st_mode) && ::fchmod(fd, old.st_mode & 07777) != 0)
    fail("chmod", true);
  if (::fsync(fd) != 0) fail("fsync", true);
  if (::close(fd) != 0) fail("close", false);
  if (::rename(tmp.c_str(), path.c_str()) != 0) fail("rename", false);
}
}  // namespace

void write_file_atomically(const std::string& path_given, const std::string& text) {
  // The file is replaced by a rename: only a regular file (or a link to one, whose target is then
  // replaced) may stand there; a device, a directory or a pipe is refused, not replaced.
  const std::string path = replaceable_path(path_given);
  // The signal handlers' to remove while it is written (a killed --emit vllm run left one behind:
  // a fresh CI user's find, 2026-12-05), noted from its creation; the temporary noted before it (an
  // AtomicFile's) after.
  std::string previous;
  const auto [tmp, fd] = create_temporary_beside(path, &previous);
  struct Noted {
    std::string previous;
    ~Noted() { note_active_temporary(previous); }
  } noted{previous};
  const char* data = text.data();
  std::size_t left = text.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, data, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      abandon_temporary(fd, tmp, path, "write");
    }
    data += n;
    left -= static_cast<std::size_t>(n);
  }
  sync_and_rename(fd, tmp, path);
}

void remove_active_temporary() noexcept {
  if (g_has_active_temporary.exchange(false)) ::unlink(g_active_temporary);  // async-signal-safe
}

AtomicFile::AtomicFile(const std::string& path) : path_(replaceable_path(path)) {
  // A name the file system cannot hold is said now, not at the rename after the whole run (a fresh
  // CI user's find, 2026-12-05: the temporary's own name is short).
  const std::filesystem::path target(path_);
  const std::string dir = target.parent_path().empty() ? std::string(".") : target.parent_path().string();
  const long name_max = ::pathconf(dir.c_str(), _PC_NAME_MAX);
  if (name_max > 0 && static_cast<long>(target.filename().string().size()) > name_max)
    throw InputError(path + ": cannot write: its name is longer than the " + std::to_string(name_max) +
                     " bytes the file system holds");
  remove_stale_temporaries(dir);
  const auto [tmp, fd] = create_temporary_beside(path_);
  tmp_ = tmp;
  lock_fd_ = fd;  // kept open, and so locked, until the file is in place or removed
  out_.open(tmp_, std::ios::binary | std::ios::trunc);
  if (!out_) {
    ::unlink(tmp_.c_str());
    ::close(lock_fd_);
    throw InputError(path_ + ": cannot write: cannot open " + tmp_);
  }
  note_active_temporary(tmp_);
}

AtomicFile::~AtomicFile() {
  if (!committed_) discard();
  else note_active_temporary("");
  if (lock_fd_ >= 0) ::close(lock_fd_);
}

void AtomicFile::discard() {
  note_active_temporary("");
  out_.close();
  ::unlink(tmp_.c_str());
  committed_ = true;  // nothing left to remove
  if (lock_fd_ >= 0) ::close(lock_fd_);
  lock_fd_ = -1;
}

void AtomicFile::commit() {
  out_.flush();
  const bool written = static_cast<bool>(out_);
  out_.close();
  if (!written || out_.fail()) {
    committed_ = true;  // abandon_temporary removes it
    abandon_temporary(-1, tmp_, path_, "write");
  }
  committed_ = true;  // sync_and_rename removes the temporary when it fails
  const int fd = lock_fd_;  // open for writing since its creation: fsync and fchmod take it
  lock_fd_ = -1;
  note_active_temporary("");
  sync_and_rename(fd, tmp_, path_);
}

void AtomicFile::abandon(int error) {
  // The reason, where the caller could not tell it (the buffer's failed write lost errno): one more
  // byte at the temporary's end fails as the last write did (EFBIG past ulimit -f, ENOSPC); the
  // temporary is discarded anyway.
  if (error == 0 && lock_fd_ >= 0) {
    struct stat st {};
    if (::fstat(lock_fd_, &st) == 0 && ::pwrite(lock_fd_, "\n", 1, st.st_size) < 0) error = errno;
  }
  discard();
  throw InputError(path_ + ": cannot write: " + (error != 0 ? std::string(std::strerror(error)) : "a write failed") +
                   " (" + path_ + " left as it was)");
}

std::string profile_source_text(const Hardware& hw) {
  if (hw.source.rfind("embedded:", 0) == 0 || hw.source.empty()) return hw.source;
  std::error_code ec;
  const std::filesystem::path absolute = std::filesystem::absolute(hw.source, ec);
  return ec ? hw.source : absolute.lexically_normal().string();
}

nlohmann::json sidecar_run_json(const Hardware& hw, const Target& target) {
  nlohmann::json g = generator_json();
  g["hardware"] = hw.name;
  g["cu_count"] = hw.cu_count;
  // An absolute path: the sidecar is read from elsewhere (a fresh user's find: "mine.yaml").
  g["profile"] = profile_source_text(hw);
  g["profile_digest"] = hw.source_digest;
  g["target"] = std::string(target.name());
  return g;
}

namespace {
// A sidecar entry's field as text ("?" where the entry lacks it): a hand-edited sidecar may hold
// anything there, and operator[] on a const json's missing key is undefined.
std::string entry_text(const nlohmann::json& entry, const char* key) {
  if (!entry.is_object() || !entry.contains(key)) return "?";
  const nlohmann::json& v = entry.at(key);
  return v.is_string() ? printable(v.get<std::string>()) : printable(v.dump());
}

std::string sidecar_path(const std::string& dir) {
  return (std::filesystem::path(dir) / "gemm-advisor-generator.json").string();
}

// The "files" object of the sidecar at `path` (a regular file): each config file's run. When the
// text is not such a sidecar, an empty object, and *why says what it is instead. Throws InputError
// when it cannot be read (read_text_file).
nlohmann::json sidecar_files(const std::string& path, std::string* why) {
  const std::string text = read_text_file(path);
  try {
    const nlohmann::json earlier = nlohmann::json::parse(text);
    if (earlier.is_object() && earlier.contains("files") && earlier["files"].is_object() &&
        std::all_of(earlier["files"].begin(), earlier["files"].end(),
                    [](const nlohmann::json& v) { return v.is_object(); }))
      return earlier["files"];
    *why = "no \"files\" object of runs";
  } catch (const nlohmann::json::exception&) {
    *why = "not JSON";
  }
  return nlohmann::json::object();
}

// The "files" of `dir`'s sidecar: empty where there is none, or where it is no sidecar gemm-advisor
// can read (*why then says what it is).
nlohmann::json listed_files(const std::string& dir, std::string* why) {
  std::error_code ec;
  const std::string path = sidecar_path(dir);
  return std::filesystem::is_regular_file(path, ec) ? sidecar_files(path, why) : nlohmann::json::object();
}

// Whether a sidecar entry's `key` (hardware, cu_count) names another run than `run`'s.
bool run_differs(const nlohmann::json& entry, const nlohmann::json& run, const char* key) {
  return entry.is_object() && entry.contains(key) && run.contains(key) && entry.at(key) != run.at(key);
}

// The names among `names` that exist in `dir` and `listed` (listed_files) does not list.
std::vector<std::string> foreign_among(const std::string& dir, const std::vector<std::string>& names,
                                       const nlohmann::json& listed) {
  namespace fs = std::filesystem;
  std::error_code ec;
  std::vector<std::string> foreign;
  for (const std::string& name : names) {
    if (fs::exists(fs::symlink_status(fs::path(dir) / name, ec)) && !listed.contains(name)) foreign.push_back(name);
  }
  return foreign;
}
}  // namespace

void check_generator_sidecar(const std::string& dir) {
  const std::string path = sidecar_path(dir);
  std::error_code ec;
  if (!std::filesystem::exists(std::filesystem::symlink_status(path, ec))) return;
  const std::string target = replaceable_path(path);
  if (std::filesystem::is_regular_file(target, ec)) (void)read_text_file(target);
}

namespace {
// Each of `names` that is a link in `dir` whose target resolves (a link to nowhere is refused as such
// when the file is written): fn(name, the link's path, its target's canonical path).
template <typename Fn>
void for_each_link(const std::string& dir, const std::vector<std::string>& names, Fn fn) {
  namespace fs = std::filesystem;
  std::error_code ec;
  for (const std::string& name : names) {
    const fs::path path = fs::path(dir) / name;
    if (!fs::is_symlink(fs::symlink_status(path, ec))) continue;
    std::error_code target_ec;
    const fs::path target = fs::canonical(path, target_ec);
    if (!target_ec) fn(name, path, target);
  }
}

// A link at one of this run's names to another file in DIR: to the sidecar or to a file the sidecar
// lists, never (the sidecar's text went into a config file, another run's file took this one's
// configs, exit 0: an adversarial user's finds, 2026-12-07); to another file there, only with
// `overwrite` (it is no file of this tool's). Links to the run's own other names are refused before
// (refuse_links_out_of); links out of DIR there too.
void refuse_links_to_other_files(const std::string& dir, const std::vector<std::string>& names,
                                 const nlohmann::json& listed, bool overwrite) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path home = fs::canonical(dir, ec);
  for_each_link(dir, names, [&](const std::string& name, const fs::path& path, const fs::path& target) {
    if (target.parent_path() != home || target.filename() == name) return;
    const std::string other = target.filename().string();
    const bool sidecar = other == fs::path(sidecar_path(dir)).filename().string();
    const bool theirs = listed.is_object() && listed.contains(other);
    if (!sidecar && !theirs && overwrite) return;
    throw InputError(path.string() + ": a link to " + (fs::path(dir) / other).string() +
                     (sidecar ? ", the sidecar: never written through"
                      : theirs ? ", a file an earlier run wrote (gemm-advisor-generator.json lists it): never written "
                                 "through"
                               : ", a file gemm-advisor did not write: followed only with --overwrite") +
                     "; remove the link (nothing written)");
  });
}

// A fused-MoE file an earlier run wrote for another layer under the same name (vLLM names them by E,
// N and fp8 dtype only: a second model's run replaced the first's file unsaid, where one run over
// both keeps the first's and says so: a fresh user's find, 2026-12-07): InputError naming the file,
// both layers and `option`, before anything is written. A record without a layer (an older sidecar,
// a run that gave none) is not compared.
void refuse_other_layers(const std::string& dir, const std::vector<std::string>& names,
                         const std::map<std::string, nlohmann::json>& layers, const nlohmann::json& listed,
                         const std::string& option) {
  const auto layer_text = [](const nlohmann::json& l) {
    std::string t;
    for (const char* key : {"model", "hidden", "top_k", "dtype"}) {
      const auto it = l.find(key);
      if (it == l.end()) continue;
      const std::string v = it->is_string() ? it->get<std::string>() : it->dump();
      t += (t.empty() ? "" : ", ") + (std::string(key) == "model" ? v : std::string(key) + " " + v);
    }
    return t;
  };
  for (const std::string& name : names) {
    const auto mine = layers.find(name);
    const auto it = listed.find(name);
    if (mine == layers.end() || it == listed.end() || !it->is_object()) continue;
    // Only a file that is there (a record of one deleted since, or of a killed run's unwritten one,
    // blocked the next run: an adversarial user's find, 2026-12-07).
    std::error_code ec;
    if (!std::filesystem::is_regular_file(std::filesystem::path(dir) / name, ec)) continue;
    const auto theirs = it->find("layer");
    // A record as this tool writes it: hidden and top_k numbers, dtype a name; another (hand-edited,
    // incomplete) is not compared, as an older sidecar's without one is not.
    const auto well_formed = [](const nlohmann::json& l) {
      return l.is_object() && l.contains("hidden") && l["hidden"].is_number() && l.contains("top_k") &&
             l["top_k"].is_number() && l.contains("dtype") && l["dtype"].is_string();
    };
    if (theirs == it->end() || !well_formed(*theirs)) continue;
    const bool same = (*theirs)["hidden"].get<double>() == mine->second["hidden"].get<double>() &&
                      (*theirs)["top_k"].get<double>() == mine->second["top_k"].get<double>() &&
                      (*theirs)["dtype"] == mine->second["dtype"];
    if (same) continue;
    throw InputError((std::filesystem::path(dir) / name).string() + ": written for " + layer_text(*theirs) +
                     " (gemm-advisor-generator.json), this run ranks " + layer_text(mine->second) +
                     " under the same name (vLLM names fused-MoE files by E, N and fp8 dtype only); nothing written: "
                     "give " + option + " to replace it, or another --out directory");
  }
}

// Throws InputError when any of `names` (config files inside `dir`) exists in `dir` and `listed`
// (listed_files: the sidecar's "files") does not list it
// as written by gemm-advisor: vLLM's own tuned files, or hand-edited ones. Writing over them lost
// them unsaid (a fresh user's find, 2026-12-04): refused unless told to (`option`, --overwrite).
// Also when the sidecar lists one of them as written for another hardware or CU count than `run`'s
// (a --cu-count partition's configs under the whole GPU's file name, or the reverse: vLLM's file
// names cannot tell them apart).
void refuse_foreign_config_files(const std::string& dir, const std::vector<std::string>& names,
                                 const nlohmann::json& run, const nlohmann::json& listed, const std::string& option) {
  const std::vector<std::string> foreign = foreign_among(dir, names, listed);
  if (foreign.empty()) {
    // Ours, but for another CU count: --cu-count 8 replaced the whole GPU's files under the same
    // names unsaid, and vLLM would read them on the whole GPU (a fresh user's find, 2026-12-04).
    // Another GPU's ranking under this file name (--vllm-device-name) is as wrong as a partition's.
    std::size_t others = 0;
    std::string first;
    for (const std::string& name : names) {
      const auto it = listed.find(name);
      if (it == listed.end()) continue;
      const bool other_cus = run_differs(*it, run, "cu_count"), other_hw = run_differs(*it, run, "hardware");
      if (!other_cus && !other_hw) continue;
      if (others++ == 0)
        first = (std::filesystem::path(dir) / name).string() + ": written for " +
                (other_hw ? entry_text(*it, "hardware") + " " : std::string()) + entry_text(*it, "cu_count") +
                " CUs (gemm-advisor-generator.json), this run ranks for " +
                (other_hw ? entry_text(run, "hardware") + " " : std::string()) + entry_text(run, "cu_count");
    }
    if (others == 0) return;
    throw InputError(first + (others > 1 ? " (and " + std::to_string(others - 1) + " more of this run's files)" : "") +
                     ", and vLLM's file names do not tell them apart; nothing written: give " + option +
                     " to replace them, or another --out directory");
  }
  const std::string more =
      foreign.size() > 1 ? " (and " + std::to_string(foreign.size() - 1) + " more of this run's files)" : std::string();
  // (A sidecar that is there but is no sidecar was refused before this, by write_config_directory.)
  throw InputError((std::filesystem::path(dir) / foreign.front()).string() +
                   ": exists and was not written by gemm-advisor (gemm-advisor-generator.json does not list it)" + more +
                   "; nothing written: give " + option + " to replace such files");
}

// The device name part of a vLLM config file name ("...,device_name=NVIDIA_H200,dtype=..." ->
// "NVIDIA_H200"); "" when it has none.
std::string device_name_part(const std::string& file_name) {
  const std::size_t at = file_name.find("device_name=");
  if (at == std::string::npos) return "";
  const std::size_t start = at + std::string_view("device_name=").size();
  std::size_t end = file_name.find(',', start);
  if (end == std::string::npos) end = file_name.size() >= 5 ? file_name.size() - 5 : file_name.size();  // ".json"
  return file_name.substr(start, end - start);
}

// A warning when `listed` (the sidecar's "files") names config files, other than `names` (this
// run's), that are still in `dir` under one of this run's device names and were ranked for another
// hardware or CU count than `run`: partition and whole-GPU configs mixed under one device name,
// which vLLM cannot tell apart (a fresh user's find, 2026-12-04); "" otherwise.
std::string mixed_runs_warning(const std::string& dir, const std::vector<std::string>& names, const nlohmann::json& run,
                               const nlohmann::json& listed) {
  std::error_code ec;
  // Only files vLLM reads beside this run's: those of the same device name (vLLM's own configs
  // directory holds many GPUs' files, each read on its GPU only: the warning came for every run
  // there, a fresh user's find, 2026-12-04).
  std::set<std::string> devices;
  for (const std::string& name : names) devices.insert(device_name_part(name));
  std::size_t others = 0;
  std::string example;
  for (auto it = listed.begin(); it != listed.end(); ++it) {
    if (std::find(names.begin(), names.end(), it.key()) != names.end()) continue;  // replaced by this run
    if (devices.count(device_name_part(it.key())) == 0) continue;  // another device's file
    if (!std::filesystem::exists(std::filesystem::path(dir) / it.key(), ec)) continue;
    if (!run_differs(*it, run, "cu_count") && !run_differs(*it, run, "hardware")) continue;
    if (others++ == 0)
      example = printable(it.key()) + " (" + entry_text(*it, "hardware") + ", " + entry_text(*it, "cu_count") + " CUs)";
  }
  if (others == 0) return "";
  return dir + ": holds " + std::to_string(others) + " config file" + (others == 1 ? "" : "s") +
         " ranked for another GPU or CU count, e.g. " + example + ", beside this run's (" + entry_text(run, "hardware") +
         ", " + entry_text(run, "cu_count") + " CUs) under the same device name: vLLM reads every file of a device "
         "name on the one GPU it runs on";
}

// Writes the sidecar of `dir`: `run`'s fields, and `by_file` under "files", less the files gone
// from the directory (but those named in `keep`). Returns its path.
std::string write_sidecar(const std::string& dir, const nlohmann::json& run, nlohmann::json by_file,
                          const std::vector<std::string>& keep) {
  std::error_code ec;
  // Files an earlier run listed that are gone from the directory are not described any more; those
  // a killed run planned ("written": false) and did write (each is renamed into place whole) are
  // described as written.
  for (auto it = by_file.begin(); it != by_file.end();) {
    const bool kept = std::find(keep.begin(), keep.end(), it.key()) != keep.end();
    if (!kept && !std::filesystem::exists(std::filesystem::path(dir) / it.key(), ec)) {
      it = by_file.erase(it);
      continue;
    }
    if (!kept && it->is_object()) it->erase("written");
    ++it;
  }
  // The top level holds what every listed file's run shares: runs of two targets into one directory
  // (a block-fp8 and a fused-MoE list) made it the last run's, so that their order, a race for
  // parallel CI jobs, changed the sidecar (a fresh CI user's find, 2026-12-04). No file listed: all
  // of it (all_of over none holds).
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [key, value] : run.items()) {
    const bool shared = std::all_of(by_file.begin(), by_file.end(), [&](const nlohmann::json& entry) {
      return entry.is_object() && entry.contains(key) && entry.at(key) == value;
    });
    if (shared) out[key] = value;
  }
  out["files"] = std::move(by_file);
  const std::string path = sidecar_path(dir);
  write_file_atomically(path, json_text(out, 2) + "\n");
  return path;
}

// Removes the temporary files (write_file_atomically's ".gemm-advisor.PID.N.tmp") that a writer killed
// mid-write left in `dir`: those of a process that no longer runs (a killed --emit vllm run left its
// half-written file there for good: a fresh CI user's find, 2026-12-05). A live writer's are kept.
void remove_stale_temporaries(const std::string& dir) {
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(kTemporaryPrefix, 0) != 0 || name.size() < kTemporarySuffix.size() ||
        name.compare(name.size() - kTemporarySuffix.size(), kTemporarySuffix.size(), kTemporarySuffix) != 0)
      continue;
    const std::string rest = name.substr(kTemporaryPrefix.size());
    long pid = 0;
    const auto [end, parse_ec] = std::from_chars(rest.data(), rest.data() + rest.size(), pid);
    if (parse_ec != std::errc() || end == rest.data() || *end != '.' || pid <= 0) continue;
    // A writer holds its temporary locked while it lives (create_temporary_beside), here or in
    // another PID namespace. A PID alive here may be another process than the writer (containers
    // reuse the same few PIDs: a killed run's leftover under PID 1 blocked every later run, a fresh
    // CI user's find, 2026-12-05): such a file counts as a dead writer's once it is unlocked and a
    // minute old (a writer takes the lock just after creating it).
    const bool pid_alive = ::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH;
    if (pid_alive) {
      std::error_code age_ec;
      const auto written = std::filesystem::last_write_time(entry.path(), age_ec);
      if (age_ec || std::filesystem::file_time_type::clock::now() - written < std::chrono::minutes(1)) continue;
    }
    const int probe_fd = ::open(entry.path().c_str(), O_RDONLY | O_CLOEXEC);
    if (probe_fd < 0) continue;
    const bool held = ::flock(probe_fd, LOCK_EX | LOCK_NB) != 0;
    ::close(probe_fd);
    if (held) continue;
    std::error_code remove_ec;
    std::filesystem::remove(entry.path(), remove_ec);
  }
}

void refuse_links_out_of(const std::string& dir, const std::vector<std::string>& names, bool overwrite) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const std::string sidecar = sidecar_path(dir);
  if (fs::is_symlink(fs::symlink_status(sidecar, ec)))
    throw InputError(sidecar + ": a link (to " + fs::read_symlink(sidecar, ec).string() +
                     "): the sidecar is written in the directory itself, never through a link; remove it (nothing written)");
  // Two of this run's names that are one file (a link in DIR to another of them): the second write
  // would put its configs under both names, with --overwrite too (vLLM read N=1536's configs for the
  // N=576 layer: a fresh user's find, 2026-12-07).
  const fs::path home = fs::canonical(dir, ec);
  std::map<fs::path, std::string> seen;
  for_each_link(dir, names, [&](const std::string& name, const fs::path& path, const fs::path& target) {
    const fs::path other = fs::path(dir) / target.filename();
    const bool in_dir = target.parent_path() == home;
    if (in_dir && target.filename() != name &&
        std::find(names.begin(), names.end(), target.filename().string()) != names.end())
      throw InputError(path.string() + ": a link to " + other.string() + ", which this run writes too: both names " +
                       "would hold one file's configs; remove the link (nothing written)");
    if (const auto [it, fresh] = seen.emplace(target, name); !fresh)
      throw InputError(path.string() + ": the same file as " + (fs::path(dir) / it->second).string() +
                       " (links), which this run writes too; remove the link (nothing written)");
  });
  if (overwrite) return;
  for_each_link(dir, names, [&](const std::string&, const fs::path& path, const fs::path& target) {
    if (target.parent_path() != home)
      throw InputError(path.string() + ": a link to " + fs::read_symlink(path, ec).string() +
                       ", outside " + dir + ": followed only with --overwrite (nothing written)");
  });
}

std::string unreadable_sidecar_warning(const std::string& dir, const std::string& why) {
  if (why.empty()) return "";
  // Not ours, or unreadable: replaced by this run's, and said (it was silent: a fresh user's find).
  return sidecar_path(dir) + ": not a sidecar gemm-advisor can read (" + why +
         "): replaced, and what it said of the files earlier runs wrote there is lost";
}
}  // namespace

std::string write_config_directory(const std::string& dir, const std::vector<std::pair<std::string, std::string>>& files,
                                   const nlohmann::json& run, bool overwrite,
                                   const std::function<void(const std::string&)>& written,
                                   std::vector<std::string>* warnings, std::chrono::milliseconds sidecar_refresh,
                                   const std::map<std::string, nlohmann::json>* file_layers) {
  if (files.empty()) return "";
  std::error_code exists_ec;
  const bool fresh_dir = !std::filesystem::is_directory(dir, exists_ec);  // made by this run
  ensure_directory(dir);
  // A directory this run made goes again if the run fails before any config file is in it, whatever
  // failed (out of file descriptors before the lock left an empty directory: a fresh CI reviewer's
  // find, 2026-12-05); std::filesystem::remove takes a directory only when it is empty.
  struct RemoveIfNothingWritten {
    const std::string& dir;
    bool armed;
    int exceptions = std::uncaught_exceptions();
    ~RemoveIfNothingWritten() {
      if (!armed || std::uncaught_exceptions() <= exceptions) return;
      std::error_code ec;
      std::filesystem::remove(sidecar_path(dir), ec);
      std::filesystem::remove(dir, ec);
    }
  } remove_if_nothing_written{dir, fresh_dir};
  // One run at a time in a directory: the check, the files and the sidecar under an exclusive lock
  // on the directory (flock), so that concurrent runs neither lose each other's sidecar entries nor
  // see each other's files half-listed (16 runs at once left the sidecar listing 6 of 16 files,
  // and later runs then refused the other 10 as foreign: a fresh user's find, 2026-12-04).
  const int lock_fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (lock_fd < 0) throw InputError(dir + ": cannot open the directory: " + std::strerror(errno));
  struct Unlock {
    int fd;
    ~Unlock() { ::close(fd); }  // closing the descriptor releases the lock
  } unlock{lock_fd};
  while (::flock(lock_fd, LOCK_EX) != 0) {
    if (errno != EINTR) throw InputError(dir + ": cannot lock the directory: " + std::strerror(errno));
  }
  remove_stale_temporaries(dir);
  std::vector<std::string> names;
  names.reserve(files.size());
  for (const auto& f : files) names.push_back(f.first);
  // Before any file: a directory (or device, pipe) in a file's place cannot be replaced, --overwrite or
  // not (with it the run wrote half its files, then failed there: a fresh user's find, 2026-12-04).
  for (const std::string& name : names) {
    const std::string path = (std::filesystem::path(dir) / name).string();
    refuse_non_regular(path, path + " (nothing written)");
  }
  // Links: the sidecar is this tool's own file in DIR, never written through a link; a config
  // file's link is followed where it stays in DIR, and out of it only with --overwrite (a checked-out
  // repository's links, with a sidecar claiming their names, replaced files elsewhere, exit 0: a
  // fresh CI reviewer's find, 2026-12-05). Both before any file is written.
  refuse_links_out_of(dir, names, overwrite);
  // The sidecar, read once for the checks and as the base of the one written (a sidecar it cannot
  // read, permissions, is an error that leaves it alone; one that is no sidecar is refused below, or
  // with --overwrite lists nothing, is replaced, and said).
  std::string why;
  const nlohmann::json earlier = listed_files(dir, &why);
  // A file at the sidecar's name that is no sidecar is someone's: replaced only with --overwrite (it
  // was replaced with a warning that --quiet hid: a fresh CI reviewer's find, 2026-12-05).
  if (!why.empty() && !overwrite)
    throw InputError(sidecar_path(dir) + ": not a sidecar gemm-advisor wrote (" + why +
                     "): nothing written; remove it, or give --overwrite to replace it");
  if (!overwrite) refuse_foreign_config_files(dir, names, run, earlier, "--overwrite");
  refuse_links_to_other_files(dir, names, earlier, overwrite);
  if (!overwrite && file_layers) refuse_other_layers(dir, names, *file_layers, earlier, "--overwrite");
  // A file's record: the run's fields, and the layer its configs were ranked for where given.
  const auto record_of = [&](const std::string& name) {
    nlohmann::json r = run;
    if (file_layers)
      if (const auto it = file_layers->find(name); it != file_layers->end()) r["layer"] = it->second;
    return r;
  };
  if (std::string mixed = mixed_runs_warning(dir, names, run, earlier); !mixed.empty() && warnings)
    warnings->push_back(std::move(mixed));
  if (std::string w = unreadable_sidecar_warning(dir, why); !w.empty() && warnings) warnings->push_back(std::move(w));
  // The sidecar lists this run's files before any is written, and after, those written: a run
  // that fails midway (a full disk, a directory in a file's place, a kill) leaves no file of its own
  // unlisted, which every later run into the directory refused as foreign (a fresh user's find,
  // 2026-12-04). A file that was not written keeps what the earlier sidecar said of it.
  // Marked "written": false until the run has written them (a killed run's sidecar read as if every
  // planned file existed: a fresh CI user's find, 2026-12-05); the sidecar after the run drops it.
  nlohmann::json planned = earlier;
  for (const std::string& name : names) {
    nlohmann::json pending = record_of(name);
    pending["written"] = false;
    planned[name] = std::move(pending);
  }
  (void)write_sidecar(dir, run, planned, names);
  auto last_sidecar = std::chrono::steady_clock::now();
  std::vector<std::string> done;
  auto record = [&]() {
    nlohmann::json by_file = earlier;
    for (const std::string& name : done) by_file[name] = record_of(name);
    return write_sidecar(dir, run, std::move(by_file), {});
  };
  for (const auto& [name, text] : files) {
    // Normalised: --out "x//" printed "x//N=..." (a fresh user's find, 2026-12-05).
    const std::string path = (std::filesystem::path(dir).lexically_normal() / name).string();
    try {
      write_file_atomically(path, text);
    } catch (const InputError&) {
      // A directory this run made and wrote no config file into goes again: a run that writes
      // nothing leaves no directory, as README says (a file name too long for the file system left
      // one holding a sidecar that listed nothing: a fresh user's find, 2026-12-05).
      if (fresh_dir && done.empty()) throw;  // the directory goes again (remove_if_nothing_written)
      try {
        (void)record();
      } catch (const InputError&) {
        // The sidecar cannot be rewritten either (the same full disk): it still lists the planned
        // files, and the first error is the one said.
      }
      throw;
    }
    done.push_back(name);
    remove_if_nothing_written.armed = false;
    // A long run's sidecar follows it (1,500 files written by a run killed after 1,001 were all
    // still "written": false: the sidecar was rewritten only at the end, noticed 2026-12-05).
    // The files still to come stay listed as planned.
    planned[name] = record_of(name);
    if (std::chrono::steady_clock::now() - last_sidecar >= sidecar_refresh) {
      (void)write_sidecar(dir, run, planned, names);
      last_sidecar = std::chrono::steady_clock::now();
    }
    if (written) written(path);
  }
  return record();
}

void check_directory_creatable(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_directory(dir, ec)) return;
  if (fs::exists(dir, ec)) throw InputError(dir + ": exists and is not a directory");
  if (fs::is_symlink(fs::symlink_status(dir, ec)))
    throw InputError(dir + ": a link to nowhere (" + fs::read_symlink(dir, ec).string() + "): cannot create the directory");
  fs::path up = fs::absolute(dir, ec).lexically_normal();
  while (up.has_parent_path() && up != up.parent_path() && !fs::exists(up, ec)) up = up.parent_path();
  if (!fs::is_directory(up, ec))
    throw InputError(dir + ": cannot create directory: " + up.string() + " is not a directory");
  if (::access(up.c_str(), W_OK) != 0)
    throw InputError(dir + ": cannot create directory: " + up.string() + ": " + std::strerror(errno));
}

void ensure_directory(const std::string& dir) {
  namespace fs = std::filesystem;
  check_directory_creatable(dir);
  std::error_code ec;
  if (fs::is_directory(dir, ec)) return;
  fs::create_directories(dir, ec);
  if (ec) throw InputError(dir + ": cannot create directory: " + ec.message());
}

}  // namespace gemm_advisor
