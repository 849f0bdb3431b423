#include "gemm_advisor/hardware.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <sys/stat.h>

#include "gemm_advisor/error.hpp"

namespace gemm_advisor {

const MatrixRate* Hardware::rate(Dtype d) const {
  const auto& r = matrix[static_cast<std::size_t>(d)];
  return r ? &*r : nullptr;
}

double Hardware::peak_flops_per_s(Dtype d) const {
  const MatrixRate* r = rate(d);
  return r ? cu_count * r->flops_per_cycle_per_cu * clock_hz : 0.0;
}

void check_readable_file(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) throw InputError(path + ": cannot open: " + std::strerror(errno));
  if (S_ISDIR(st.st_mode)) throw InputError(path + ": is a directory, expected a file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot open: " + std::strerror(errno));
}

std::string read_text_file(const std::string& path) {
  check_readable_file(path);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot open: " + std::strerror(errno));
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw InputError(path + ": read error");
  return ss.str();
}

namespace {

// Walks the YAML tree, collecting errors and warnings with file:line, and remembering every
// numeric key read so the `sources:` map can be checked against it.
class ProfileReader {
 public:
  ProfileReader(const std::string& source, ProfileDiagnostics& diag) : source_(source), diag_(diag) {}

  std::string where(const YAML::Node& n) const {
    return source_ + ":" + std::to_string(n.Mark().line + 1);
  }
  void error(const YAML::Node& n, const std::string& msg) { diag_.errors.push_back(where(n) + ": " + msg); }
  void warn(const YAML::Node& n, const std::string& msg) { diag_.warnings.push_back(where(n) + ": " + msg); }

  // Checks a mapping for duplicate and unknown keys.
  void check_keys(const YAML::Node& map, const std::string& path, const std::set<std::string>& known) {
    std::set<std::string> seen;
    for (const auto& kv : map) {
      const std::string key = kv.first.Scalar();
      const std::string full = path.empty() ? key : path + "." + key;
      if (!seen.insert(key).second) error(kv.first, "duplicate key '" + full + "'");
      if (!known.empty() && !known.count(key)) warn(kv.first, "unknown key '" + full + "' (ignored)");
    }
  }

  YAML::Node section(const YAML::Node& root, const std::string& key) {
    YAML::Node n = root[key];
    if (!n) {
      error(root, "missing section '" + key + "'");
      return YAML::Node();
    }
    if (!n.IsMap()) {
      error(n, "'" + key + "' must be a mapping");
      return YAML::Node();
    }
    return n;
  }

  std::string text(const YAML::Node& map, const std::string& key, const std::string& path) {
    YAML::Node n = map[key];
    if (!n) {
      error(map, "missing key '" + path + "'");
      return "";
    }
    if (!n.IsScalar()) {
      error(n, "'" + path + "' must be a string");
      return "";
    }
    return n.Scalar();
  }

  // Reads a number; `allow_zero` for quantities that may be absent (LLC).
  double number(const YAML::Node& map, const std::string& key, const std::string& path,
                bool allow_zero = false, bool required = true) {
    if (!map || !map.IsMap()) return 0;
    YAML::Node n = map[key];
    if (!n) {
      if (required) error(map, "missing key '" + path + "'");
      return 0;
    }
    numeric_keys_.insert(path);
    if (!n.IsScalar()) {
      error(n, "'" + path + "' must be a number");
      return 0;
    }
    const std::string& s = n.Scalar();
    double v = 0;
    char* end = nullptr;
    errno = 0;
    v = std::strtod(s.c_str(), &end);
    if (s.empty() || end != s.c_str() + s.size()) {
      error(n, "'" + path + "' must be a number, got '" + s + "'");
      return 0;
    }
    if (!std::isfinite(v) || errno == ERANGE) {
      error(n, "'" + path + "' must be finite, got '" + s + "'");
      return 0;
    }
    if (v < 0 || (v == 0 && !allow_zero)) {
      error(n, "'" + path + "' must be " + (allow_zero ? "zero or positive" : "positive") + ", got " + s);
      return 0;
    }
    return v;
  }

  int integer(const YAML::Node& map, const std::string& key, const std::string& path,
              bool allow_zero = false) {
    const double v = number(map, key, path, allow_zero);
    if (v != std::floor(v) || v > 2147483647.0) {
      error(map[key], "'" + path + "' must be a whole number, got " + map[key].Scalar());
      return 0;
    }
    return static_cast<int>(v);
  }

  double fraction(const YAML::Node& map, const std::string& key, const std::string& path) {
    const double v = number(map, key, path);
    if (v > 1.0) error(map[key], "'" + path + "' is a fraction and must be at most 1, got " + map[key].Scalar());
    return v;
  }

  const std::set<std::string>& numeric_keys() const { return numeric_keys_; }

 private:
  std::string source_;
  ProfileDiagnostics& diag_;
  std::set<std::string> numeric_keys_;
};

}  // namespace

Hardware parse_profile(std::string_view yaml_text, const std::string& source,
                       ProfileDiagnostics* diagnostics) {
  ProfileDiagnostics local;
  ProfileDiagnostics& diag = diagnostics ? *diagnostics : local;
  YAML::Node root;
  try {
    root = YAML::Load(std::string(yaml_text));
  } catch (const YAML::Exception& e) {
    const std::string msg = located(source, e.mark.line + 1, "not valid YAML: " + e.msg);
    diag.errors.push_back(msg);
    throw InputError(msg);
  }
  if (!root || !root.IsMap()) {
    const std::string msg = located(source, 0, "not a hardware profile: expected a YAML mapping at the top level");
    diag.errors.push_back(msg);
    throw InputError(msg);
  }

  ProfileReader r(source, diag);
  Hardware hw;
  hw.source = source;
  r.check_keys(root, "", {"name", "display_name", "vendor", "arch", "isa", "compute", "memory",
                          "efficiency", "matrix", "triton", "sources", "model_parameters", "notes"});
  hw.name = r.text(root, "name", "name");
  hw.display_name = r.text(root, "display_name", "display_name");
  hw.vendor = r.text(root, "vendor", "vendor");
  hw.arch = r.text(root, "arch", "arch");
  hw.isa = r.text(root, "isa", "isa");
  if (!hw.name.empty() && !std::regex_match(hw.name, std::regex("[a-z0-9_-]+")))
    r.error(root["name"], "'name' must use only lowercase letters, digits, '-' and '_', got '" + hw.name + "'");
  if (!hw.vendor.empty() && hw.vendor != "nvidia" && hw.vendor != "amd")
    r.error(root["vendor"], "'vendor' must be nvidia or amd, got '" + hw.vendor + "'");

  if (YAML::Node c = r.section(root, "compute")) {
    r.check_keys(c, "compute", {"cu_count", "clock_mhz", "warp_size", "matrix_units_per_cu",
                                "warps_to_feed_matrix_units", "max_warps_per_cu", "max_blocks_per_cu",
                                "registers_per_cu", "max_registers_per_thread", "smem_per_cu_bytes",
                                "smem_per_block_bytes"});
    hw.cu_count = r.integer(c, "cu_count", "compute.cu_count");
    hw.clock_hz = r.number(c, "clock_mhz", "compute.clock_mhz") * 1e6;
    hw.warp_size = r.integer(c, "warp_size", "compute.warp_size");
    hw.matrix_units_per_cu = r.integer(c, "matrix_units_per_cu", "compute.matrix_units_per_cu");
    hw.warps_to_feed_matrix_units = r.integer(c, "warps_to_feed_matrix_units", "compute.warps_to_feed_matrix_units");
    hw.max_warps_per_cu = r.integer(c, "max_warps_per_cu", "compute.max_warps_per_cu");
    hw.max_blocks_per_cu = r.integer(c, "max_blocks_per_cu", "compute.max_blocks_per_cu");
    hw.registers_per_cu = r.integer(c, "registers_per_cu", "compute.registers_per_cu");
    hw.max_registers_per_thread = r.integer(c, "max_registers_per_thread", "compute.max_registers_per_thread");
    hw.smem_per_cu_bytes = r.integer(c, "smem_per_cu_bytes", "compute.smem_per_cu_bytes");
    hw.smem_per_block_bytes = r.integer(c, "smem_per_block_bytes", "compute.smem_per_block_bytes");
    if (hw.smem_per_block_bytes > hw.smem_per_cu_bytes && hw.smem_per_cu_bytes > 0)
      r.error(c["smem_per_block_bytes"], "'compute.smem_per_block_bytes' (" +
              std::to_string(hw.smem_per_block_bytes) + ") exceeds 'compute.smem_per_cu_bytes' (" +
              std::to_string(hw.smem_per_cu_bytes) + ")");
  }
  if (YAML::Node m = r.section(root, "memory")) {
    r.check_keys(m, "memory", {"l2_bytes", "l2_bandwidth_bytes_per_s", "l2_latency_cycles", "llc_bytes",
                               "llc_bandwidth_bytes_per_s", "dram_bytes", "dram_bandwidth_bytes_per_s",
                               "dram_latency_ns", "per_cu_load_bytes_per_cycle", "xcd_count"});
    hw.l2_bytes = r.number(m, "l2_bytes", "memory.l2_bytes");
    hw.l2_bandwidth_bytes_per_s = r.number(m, "l2_bandwidth_bytes_per_s", "memory.l2_bandwidth_bytes_per_s");
    const double l2_latency_cycles = r.number(m, "l2_latency_cycles", "memory.l2_latency_cycles");
    hw.llc_bytes = r.number(m, "llc_bytes", "memory.llc_bytes", true, false);
    hw.llc_bandwidth_bytes_per_s = r.number(m, "llc_bandwidth_bytes_per_s", "memory.llc_bandwidth_bytes_per_s", true, false);
    hw.dram_bytes = r.number(m, "dram_bytes", "memory.dram_bytes");
    hw.dram_bandwidth_bytes_per_s = r.number(m, "dram_bandwidth_bytes_per_s", "memory.dram_bandwidth_bytes_per_s");
    hw.dram_latency_s = r.number(m, "dram_latency_ns", "memory.dram_latency_ns") * 1e-9;
    const double per_cu_bytes_per_cycle = r.number(m, "per_cu_load_bytes_per_cycle", "memory.per_cu_load_bytes_per_cycle");
    hw.xcd_count = r.integer(m, "xcd_count", "memory.xcd_count");
    if (hw.clock_hz > 0) {
      hw.l2_latency_s = l2_latency_cycles / hw.clock_hz;
      hw.per_cu_load_bytes_per_s = per_cu_bytes_per_cycle * hw.clock_hz;
    }
    if (hw.llc_bytes > 0 && hw.llc_bandwidth_bytes_per_s <= 0)
      r.error(m, "'memory.llc_bytes' is set but 'memory.llc_bandwidth_bytes_per_s' is missing or zero");
  }
  if (YAML::Node e = r.section(root, "efficiency")) {
    r.check_keys(e, "efficiency", {"matrix_peak_fraction", "dram_bandwidth_fraction"});
    hw.matrix_peak_fraction = r.fraction(e, "matrix_peak_fraction", "efficiency.matrix_peak_fraction");
    hw.dram_bandwidth_fraction = r.fraction(e, "dram_bandwidth_fraction", "efficiency.dram_bandwidth_fraction");
  }
  if (YAML::Node mx = r.section(root, "matrix")) {
    r.check_keys(mx, "matrix", {"fp32", "fp16", "bf16", "fp8", "fp6", "fp4"});
    int count = 0;
    for (const auto& kv : mx) {
      const std::string key = kv.first.Scalar();
      Dtype d;
      try {
        d = parse_dtype(key);
      } catch (const InputError&) {
        continue;  // unknown dtype key: warned above
      }
      if (key != dtype_name(d)) continue;
      const std::string base = "matrix." + key;
      const YAML::Node v = kv.second;
      if (!v.IsMap()) {
        r.error(v, "'" + base + "' must be a mapping");
        continue;
      }
      r.check_keys(v, base, {"instruction_m", "instruction_n", "instruction_k", "flops_per_cycle_per_cu",
                             "instruction_cycles", "tf32"});
      MatrixRate rate;
      rate.instruction_m = r.integer(v, "instruction_m", base + ".instruction_m");
      rate.instruction_n = r.integer(v, "instruction_n", base + ".instruction_n");
      rate.instruction_k = r.integer(v, "instruction_k", base + ".instruction_k");
      rate.flops_per_cycle_per_cu = r.number(v, "flops_per_cycle_per_cu", base + ".flops_per_cycle_per_cu");
      r.number(v, "instruction_cycles", base + ".instruction_cycles", false, false);
      if (v["tf32"]) {
        if (!v["tf32"].IsScalar() || (v["tf32"].Scalar() != "true" && v["tf32"].Scalar() != "false"))
          r.error(v["tf32"], "'" + base + ".tf32' must be true or false");
        else
          rate.tf32 = v["tf32"].Scalar() == "true";
      }
      hw.matrix[static_cast<std::size_t>(d)] = rate;
      ++count;
    }
    if (count == 0) r.error(mx, "'matrix' lists no supported dtype (fp32, fp16, bf16, fp8, fp6, fp4)");
  }
  if (YAML::Node t = r.section(root, "triton")) {
    r.check_keys(t, "triton", {"max_num_stages", "smem_stage_offset"});
    hw.triton_max_num_stages = r.integer(t, "max_num_stages", "triton.max_num_stages");
    hw.triton_smem_stage_offset = r.integer(t, "smem_stage_offset", "triton.smem_stage_offset", true);
  }
  if (YAML::Node mp = root["model_parameters"]) {
    if (!mp.IsMap()) {
      r.error(mp, "'model_parameters' must be a mapping");
    } else {
      r.check_keys(mp, "model_parameters", {"k_step_overhead_cycles", "launch_overhead_s", "l2_reuse_fraction",
                                            "narrow_tile_matrix_efficiency", "register_overhead_per_thread",
                                            "near_tie_tolerance"});
      ModelParams& p = hw.model;
      auto opt = [&](const char* key, double& field, bool is_fraction) {
        if (!mp[key]) return;
        field = is_fraction ? r.fraction(mp, key, std::string("model_parameters.") + key)
                            : r.number(mp, key, std::string("model_parameters.") + key, true);
      };
      opt("k_step_overhead_cycles", p.k_step_overhead_cycles, false);
      opt("launch_overhead_s", p.launch_overhead_s, false);
      opt("l2_reuse_fraction", p.l2_reuse_fraction, true);
      opt("narrow_tile_matrix_efficiency", p.narrow_tile_matrix_efficiency, true);
      opt("register_overhead_per_thread", p.register_overhead_per_thread, false);
      opt("near_tie_tolerance", p.near_tie_tolerance, true);
    }
  }
  // Every number should say where it came from.
  const YAML::Node sources = root["sources"];
  if (!sources || !sources.IsMap()) {
    r.warn(root, "no 'sources' mapping: every number in a profile should cite its source");
  } else {
    std::set<std::string> cited;
    for (const auto& kv : sources) cited.insert(kv.first.Scalar());
    for (const auto& key : r.numeric_keys()) {
      if (!cited.count(key) && key.rfind("model_parameters.", 0) != 0)
        r.warn(sources, "'" + key + "' has no entry in 'sources'");
    }
  }
  if (!diag.errors.empty()) throw InputError(diag.errors.front());
  return hw;
}

Hardware load_hardware(const std::string& name_or_path) {
  const bool looks_like_path = name_or_path.find('/') != std::string::npos ||
                               (name_or_path.size() > 5 && (name_or_path.rfind(".yaml") == name_or_path.size() - 5)) ||
                               (name_or_path.size() > 4 && (name_or_path.rfind(".yml") == name_or_path.size() - 4));
  if (looks_like_path) return parse_profile(read_text_file(name_or_path), name_or_path);
  std::string known;
  for (const auto& e : embedded_profiles()) {
    if (e.name == name_or_path) return parse_profile(e.yaml, "embedded:" + std::string(e.name));
    known += (known.empty() ? "" : ", ") + std::string(e.name);
  }
  throw InputError("unknown hardware profile '" + name_or_path + "' (known: " + known +
                   "; or give a path to a .yaml file)");
}

}  // namespace gemm_advisor
