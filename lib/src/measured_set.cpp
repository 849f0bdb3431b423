// The measurement files of evaluate and calibrate, read and checked as one set (read_measured_shapes).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "gemm_advisor/csv_reader.hpp"
#include "gemm_advisor/error.hpp"
#include "gemm_advisor/evaluate.hpp"
#include "gemm_advisor/measurements.hpp"

namespace gemm_advisor {

bool same_file(const std::string& a, const std::string& b) {
  // Two names of one existing file (a hard link, a bind mount) by device and inode: calibrate's -o as a
  // hard link of its input was taken as another file (the atomic write kept the input, but the run was
  // not refused as the same path is: a fresh CI user's find, 2026-12-07).
  std::error_code e;
  if (std::filesystem::exists(a, e) && std::filesystem::exists(b, e) && std::filesystem::equivalent(a, b, e) && !e)
    return true;
  std::error_code ea, eb;
  const auto ca = std::filesystem::weakly_canonical(a, ea), cb = std::filesystem::weakly_canonical(b, eb);
  return ea || eb ? a == b : ca == cb;
}

namespace {
// Refuses a problem's rows that another GPU, a MIG slice without --cu-count, or a problem the target
// cannot run gave; warns once (*variant_warned) of another card of the chip or a partition of rows
// timed on the whole GPU.
void require_measured_for(const std::string& path, long line, const MeasuredShape& shape,
                          const Profile& profile, const Target& target,
                          bool* variant_warned, const MeasurementLog& log) {
  if (!shape.gpu.empty() &&
      !gpu_matches_profile(shape.gpu, profile.hw.name, profile.hw.display_name, profile.hw.aliases))
    throw InputError(located(path, line, "measured on '" + printable(shape.gpu) + "', not on " +
                                                           profile.hw.display_name +
                                                           " (give that GPU's profile with --hw, or add the name to "
                                                           "the profile's aliases)"));
  // The same chip, but not the same GPU: a MIG slice has a fraction of the SMs (a fit to it would be
  // read as the whole GPU's), another card its own clocks and power limit (said, not refused).
  if (!shape.gpu.empty()) {
    const std::string variant = gpu_variant(shape.gpu, profile.hw.product_display_name.empty()
                                                                          ? profile.hw.display_name
                                                                          : profile.hw.product_display_name);
    // A 7g slice holds (about) all of the SMs: the whole GPU's count is its own (--cu-count 132 for an
    // H100's 7g.80gb was refused as not given: a fresh user's find, 2026-12-06).
    if (variant == "MIG" && profile.hw.cu_count >= profile.hw.product_cu_count && mig_slice(shape.gpu).sm_sevenths != 7)
      throw InputError(located(path, line, "measured on '" + printable(shape.gpu) +
                                                             "', a MIG slice: give its SM count with --cu-count (the " +
                                                             profile.hw.name + " profile is the whole GPU, " +
                                                             std::to_string(profile.hw.cu_count) +
                                                             " SMs), and its share of the memory, L2 and DRAM "
                                                             "bandwidth in a copy of the profile (README, --cu-count)"));
    // A slice whose name disagrees with the partition given, or whose memory the profile does not
    // slice: said once (a 1g slice scored at --cu-count 98, and a 3g.40gb one on the whole GPU's 80 GB,
    // L2 and bandwidth, passed unsaid: a fresh user's find, 2026-12-05).
    if (variant == "MIG" && variant_warned && !*variant_warned) {
      const MigSlice slice = mig_slice(shape.gpu);
      const Hardware& hw = profile.hw;
      std::string issues;
      if (slice.sm_sevenths > 0 && hw.product_cu_count > 0) {
        const double expected = slice.sm_sevenths / 7.0 * hw.product_cu_count;
        if (hw.cu_count > 1.2 * expected || hw.cu_count < 0.6 * expected)
          issues += fmt::format("a {}g slice holds about {}/7 of the SMs (~{:.0f} of {}), not the {} ranked for",
                                slice.sm_sevenths, slice.sm_sevenths, expected, hw.product_cu_count, hw.cu_count);
      }
      if (slice.memory_bytes > 0 && hw.dram_bytes > 1.5 * slice.memory_bytes)
        issues += fmt::format("{}its {:.0f} GB are a share of the GPU's memory, and so of its L2 and DRAM bandwidth, "
                              "which stay the profile's whole-GPU figures ({:.0f} GB): a partition (--cu-count, "
                              "compute.active_cu_count) sets the SMs "
                              "only; give the slice's memory figures in a copy of the profile",
                              issues.empty() ? "" : "; ", slice.memory_bytes / 1e9, hw.dram_bytes / 1e9);
      if (!issues.empty()) {
        *variant_warned = true;
        log(LogLevel::warning, located(path, line, "measured on '" + printable(shape.gpu) + "': " + issues));
      }
    }
    // The reverse: a partition asked for (--cu-count) of rows the gpu column says ran on the whole
    // GPU (no MIG slice): the partition's peak and waves would score the whole GPU's times (taken
    // unsaid: a fresh user's find, 2026-12-04). A CU mask leaves the name as it is: said, not refused.
    // AMD's partitions (CPX, a CU mask) keep the product's name, so there the name says nothing (every
    // CPX measurement was warned of, and --strict failed: a fresh AMD user's find, 2026-12-05); the
    // partition may come from the overlay (compute.active_cu_count), not only --cu-count.
    if (variant != "MIG" && profile.hw.cu_count < profile.hw.product_cu_count && profile.hw.vendor != "amd" &&
        variant_warned && !*variant_warned) {
      *variant_warned = true;
      log(LogLevel::warning, located(path, line, "measured on '" + printable(shape.gpu) +
                                                               "', which names no MIG slice, while the profile ranks for a "
                                                               "partition of " +
                                                               std::to_string(profile.hw.cu_count) + " of " +
                                                               std::to_string(profile.hw.product_cu_count) +
                                                               " SMs (--cu-count, or the profile's "
                                                               "compute.active_cu_count): timed under a CU mask? (else "
                                                               "rank for the whole GPU)"));
    }
    if (!variant.empty() && variant != "MIG" && variant_warned && !*variant_warned) {
      *variant_warned = true;
      log(LogLevel::warning, located(path, line, "measured on '" + printable(shape.gpu) +
                                                               "', the " + variant + " card, not the " +
                                                               profile.hw.display_name +
                                                               " the profile describes: its SM count, clocks, memory "
                                                               "bandwidth or power limit may differ" +
                                                               // The example where it is the card said (it was
                                                               // given for an H200 NVL too: a fresh user's find,
                                                               // 2026-12-07).
                                                               (profile.hw.name == "h100" && variant == "PCIe"
                                                                    ? std::string(" (an H100 PCIe has 114 SMs and 2 TB/s)")
                                                                    : std::string()) +
                                                               ": " + own_profile_advice(profile.hw.name)));
    }
  }
  if (const std::string why = target.problem_error(shape.problem, profile); !why.empty()) {
    // A target of one dtype or layout (vllm-fp8-block: fp8, NT): a file without those columns reads as
    // the harness's bf16 NN, which the message blamed on the data (a fresh user's find, 2026-12-06).
    const TargetInfo& info = target.info();
    const bool dtype_off = !info.default_dtype.empty() && parse_dtype(info.default_dtype) != shape.problem.dtype;
    const bool layout_off = !info.default_layout.empty() && info.default_layout != shape.problem.layout.name();
    const std::string hint =
        dtype_off || layout_off
            ? " (a row without dtype or layout reads as bf16 NN, the harness's defaults: this target's rows need " +
                  (dtype_off ? "dtype " + std::string(info.default_dtype) : std::string()) +
                  (dtype_off && layout_off ? " and " : "") +
                  (layout_off ? "layout " + std::string(info.default_layout) : std::string()) +
                  "; or measurements of another kernel?)"
            : " (measurements of another kernel, dtype or GPU?)";
    throw InputError(located(path, line, shape.problem.shape_text() + ": " + why + hint));
  }
}

// Whether two regular files hold the same bytes, read in chunks.
bool same_bytes(const std::string& a, const std::string& b) {
  // As the reader sees them: a .gz decompressed (the same CSV gzipped twice differs on disk in its
  // header's time stamp and level, a fresh user's find, 2026-12-05).
  const std::unique_ptr<std::istream> pa = open_csv_file(a), pb = open_csv_file(b);
  std::istream &fa = *pa, &fb = *pb;
  char ba[1 << 16], bb[1 << 16];
  while (true) {
    fa.read(ba, sizeof ba);
    fb.read(bb, sizeof bb);
    if (fa.gcount() != fb.gcount() || std::memcmp(ba, bb, static_cast<std::size_t>(fa.gcount())) != 0) return false;
    if (!fa || !fb) return !fa && !fb;
  }
}

// How much slower than the model's fastest prediction among a shape's timed configs its measured best
// may be before the file's unit is in doubt: the model's worst misses on committed data are a few
// times off (catastrophic spills, measured up to 24x the best config, are the rows, not the best);
// a file in microseconds is 1000x off.
constexpr double kFarSlowerThanPredicted = 200.0;

// A shape's timed configs against the model's predictions for them. `shape`: whether its fastest timed
// config took over kFarSlowerThanPredicted times the model's fastest prediction among its feasible
// timed configs (none feasible: false). `rows`: how many of its ok rows took over that many times the
// model's prediction for their own config, `first` the first of them (nullptr for none): single rows
// so far off are a unit slip within the file (microseconds pasted among milliseconds, scored unsaid at
// 0.6% of oracle: a fresh user's find, 2026-12-07) or a bad run (the committed data's one such row,
// h200-triton-n.csv's 777x33x21 64x64x16 w2 s3, ran 4.2 ms, 660x its prediction, once, where its
// neighbours ran 7-190 us; of 214,000 rows checked the next was 178x and 99.9% were within 16x).
struct SlowerThanPredicted {
  bool shape = false;
  std::size_t rows = 0;
  const MeasuredConfig* first = nullptr;
  double first_predicted_s = 0;
};
SlowerThanPredicted slower_than_predicted(const MeasuredShape& shape, const EstimateContext& ctx, const Target& target) {
  SlowerThanPredicted out;
  double best_ms = 0, predicted_s = 0;
  for (const MeasuredConfig& c : shape.configs) {
    if (c.status != "ok") continue;
    best_ms = best_ms == 0 ? c.ms : std::min(best_ms, c.ms);
    const LatencyEstimate e = target.estimate_latency(ctx, c.config);
    if (!e.feasible) continue;
    if (predicted_s == 0 || e.latency_s < predicted_s) predicted_s = e.latency_s;
    if (e.latency_s > 0 && c.ms * 1e-3 > kFarSlowerThanPredicted * e.latency_s && out.rows++ == 0) {
      out.first = &c;
      out.first_predicted_s = e.latency_s;
    }
  }
  out.shape = predicted_s > 0 && best_ms * 1e-3 > kFarSlowerThanPredicted * predicted_s;
  return out;
}

// The shortest time any timing method may report for a GEMM launch, as a fraction of the target's
// launch_overhead_s (an empty kernel timed the harness's way: 3.07 us on our H200, 2.91 us its 10th
// percentile, data/measurements/h200-launch.csv): a quarter leaves room for methods that leave the
// launch out (CUDA graphs, a profiler's kernel duration). Below it a small shape's row is a timing
// or unit slip that the peak floor misses: 44 ns for 176x64x48 was scored as the oracle, its shape
// at 1% (a fresh user's find, 2026-12-04). Not physics: a check's margin.
constexpr double kShortestLaunchFraction = 0.25;

// How far above the profile's L2 bandwidth a timing's compulsory bytes may pass the L2 before the row
// is a measurement error: the profiles' L2 figures are measured or derived rates (the H200's 11.2 TB/s of
// asynchronous copies), not peaks, so the floor takes twice that. Not physics: a check's margin.
constexpr double kL2FloorMargin = 2.0;

// A timing below what the GPU's datasheet peak allows for the shape's work (or below the shortest
// launch) is a measurement error (a kernel that did not run, a clock read wrong): said once per shape,
// at its first such row, and every such row is left out (status kStatusFasterThanPeak). Scored, one
// such row made itself the oracle and every other config of the shape ~0% of it (a fresh user's
// 1e-300 ms: geomean 0.0%). Returns the number of rows left out; the warnings go to *warnings
// (printed once the file is known not to be a unit slip). A vendor-library row below the floor is
// dropped too (it was scored as the vendor's time: 2732% of oracle for a file in seconds, a fresh
// user's find). Throws InputError instead where, on a partition (--cu-count), the shape's first such
// row is faster than the partition's matrix peak allows but not the whole GPU's: timed on more CUs.

std::size_t drop_faster_than_peak(const std::string& path, MeasuredShape& shape,
                                  const Hardware& hw, double launch_floor_s,
                                  std::vector<std::string>* warnings) {
  const double peak = hw.peak_flops_per_s(shape.problem.dtype);
  if (!(peak > 0)) return 0;
  // The floor: the matrix peak's time, or the DRAM's for the compulsory bytes beyond what the L2
  // could already hold (a timing loop may leave the operands L2-resident, so only the excess is
  // bound to DRAM). The peak alone passed an H200's fused-MoE file on --hw a100, whose layers stream
  // gigabytes of expert weights (a fresh user's find, 2026-12-04).
  const double dram_bytes = std::max(0.0, shape.problem.compulsory_bytes() - hw.l2_bytes);
  const double dram_floor_s = hw.dram_bandwidth_bytes_per_s > 0 ? dram_bytes / hw.dram_bandwidth_bytes_per_s : 0.0;
  // And every compulsory byte passes the L2 once (operands on their way to the CUs, the output on its
  // way out), at twice the profile's L2 bandwidth at most (kL2FloorMargin: a measured rate, not a
  // datasheet peak): an L2-resident shape timed at 1 us for 34 MB passed unchecked (a fresh user's
  // find, 2026-12-06).
  const double l2_floor_s = hw.l2_bandwidth_bytes_per_s > 0
                                ? shape.problem.compulsory_bytes() / (kL2FloorMargin * hw.l2_bandwidth_bytes_per_s)
                                : 0.0;
  const double compute_floor_s = shape.problem.flops() / peak;
  const double floor_ms = 1e3 * std::max({compute_floor_s, dram_floor_s, l2_floor_s, launch_floor_s});
  // What sets the floor, for the messages.
  const double longest_s = std::max({compute_floor_s, dram_floor_s, l2_floor_s});
  const std::string bound =
      launch_floor_s >= longest_s
          ? fmt::format("shortest kernel launch ({:.2f} us, a quarter of the launch overhead)", launch_floor_s * 1e6)
      : dram_floor_s == longest_s ? fmt::format("{:.2f} TB/s DRAM bandwidth", hw.dram_bandwidth_bytes_per_s / 1e12)
      : l2_floor_s == longest_s   ? fmt::format("L2 bandwidth (twice its {:.2f} TB/s)", hw.l2_bandwidth_bytes_per_s / 1e12)
                                  : fmt::format("{:.0f} TFLOP/s peak{}", peak / 1e12,
                                                hw.cu_count != hw.product_cu_count
                                                    ? fmt::format(" on {} CUs", hw.cu_count)
                                                    : std::string());
  if (shape.vendor_ms > 0 && shape.vendor_ms < floor_ms) {
    warnings->push_back(fmt::format("{}: {} {}: the {} row's {:g} ms is faster than {}'s {} allows ({:.4g} ms): "
                                    "left out", path, shape.problem.shape_text(),
                                    dtype_name(shape.problem.dtype), shape.vendor_kernel,
                                    shape.vendor_ms, hw.name, bound, floor_ms));
    shape.vendor_ms = 0;
    shape.vendor_kernel.clear();
  }
  std::size_t dropped = 0;
  const MeasuredConfig* first = nullptr;
  for (MeasuredConfig& c : shape.configs) {
    if (c.status == "ok" && c.ms < floor_ms) {
      if (!first) first = &c;
      c.status = std::string(kStatusFasterThanPeak);
      ++dropped;
    }
  }
  // On a partition (--cu-count below the product's), a row faster than the partition's matrix peak
  // is one only more CUs could run: the file was timed on them. Scored, its fastest rows left out, the
  // shape's oracle was its slowest configs (4096^3 at "100%" of 5 of 8 rows with --cu-count 66 on an
  // H200's file: a fresh user's find, 2026-12-06). Only where the whole GPU's peak allows the row: one
  // faster still is a timing or unit slip, said as on the whole GPU.
  const double cu_share = static_cast<double>(hw.cu_count) / static_cast<double>(std::max(1, hw.product_cu_count));
  if (first && hw.product_cu_count > hw.cu_count && compute_floor_s >= std::max(dram_floor_s, launch_floor_s) &&
      first->ms * 1e-3 >= std::max({compute_floor_s * cu_share, dram_floor_s, launch_floor_s}))
    throw InputError(located(path, first->line,
                             fmt::format("{} {} measured in {:g} ms, faster than {}'s {} allows ({:.4g} ms; {} such "
                                         "row{}): timed on more CUs than the {} ranked for (--cu-count, or the profile's "
                                         "compute.active_cu_count)? (give the CUs it ran on)",
                                         shape.problem.shape_text(), dtype_name(shape.problem.dtype), first->ms, hw.name,
                                         bound, floor_ms, dropped, dropped == 1 ? "" : "s", hw.cu_count)));
  if (first)
    warnings->push_back(located(
                           path, first->line,
                           fmt::format("{} {} measured in {:g} ms, faster than {}'s {} allows "
                                       "({:.4g} ms): {}? {} such row{} of the shape left out",
                                       shape.problem.shape_text(), dtype_name(shape.problem.dtype),
                                       first->ms, hw.name, bound, floor_ms,
                                       hw.product_cu_count > hw.cu_count
                                           ? fmt::format("timed on more than the {} CUs ranked for, or a timing error",
                                                         hw.cu_count)
                                           : std::string("a timing error"),
                                       dropped, dropped == 1 ? "" : "s")));
  return dropped;
}

// The values of the config fields a target's candidate space takes whatever the shape (num_warps,
// num_stages, group_m), for problems of one kind (dtype, layout, MoE GEMM and block shape): those of
// the space of the problem grown to at least 8192 in M, N and K, and of its own. The block sizes
// and split-K are left out: the space prunes them by shape (BLOCK_M up to M's next power of two,
// split-K up to what fills the CUs), so a value outside one shape's space is no sign of another kernel.
struct FieldValues {
  std::set<int> num_warps, num_stages, group_m;
  bool holds(const TileConfig& c) const {
    return num_warps.count(c.num_warps) && num_stages.count(c.num_stages) && group_m.count(c.group_m);
  }
};

FieldValues field_values(const GemmProblem& p, const Profile& profile, const Target& target) {
  constexpr std::int64_t kLarge = 8192;
  GemmProblem large = p;
  large.m = std::max(large.m, kLarge);
  large.n = std::max(large.n, kLarge);
  large.k = std::max(large.k, kLarge);
  std::vector<TileConfig> space, own;
  target.candidates(large, profile, space);
  target.candidates(p, profile, own);
  space.insert(space.end(), own.begin(), own.end());
  FieldValues v;
  for (const TileConfig& c : space) {
    v.num_warps.insert(c.num_warps);
    v.num_stages.insert(c.num_stages);
    v.group_m.insert(c.group_m);
  }
  return v;
}

// Counts the shape's timed configs that the target can run but with warps, stages or group_m its
// candidate space never takes (16 warps, group_m 4 on the tutorial kernel): the model ranks them as given, the
// advisor never proposes them, and as the fastest they made an oracle no pick could reach, unsaid (a
// fresh own-kernel user's find, 2026-12-04). Those it cannot run are reported by evaluate with the
// reason. `values` caches field_values per kind of problem.
void count_outside_space(const MeasuredShape& shape, const Profile& profile, const Target& target,
                         std::map<std::string, FieldValues>& values, std::size_t* outside, std::string* first,
                         std::size_t* refused, std::string* first_refused) {
  const FieldValues* v = nullptr;
  for (const MeasuredConfig& c : shape.configs) {
    if (c.status != "ok") continue;
    // A row that ran with a config the target's rules refuse (num_warps 3, block_m 17: a typo, or
    // another kernel's space) was said only in evaluate's table, not in its JSON or by calibrate (a
    // fresh user's find, 2026-12-05).
    if (const std::string why = target.infeasibility(c.config, shape.problem, profile); !why.empty()) {
      if ((*refused)++ == 0)
        *first_refused = fmt::format("line {}: {} for {}: {}", c.line, c.config.text(), shape.problem.shape_text(), why);
      continue;
    }
    if (!v) {
      const GemmProblem& p = shape.problem;
      const std::string kind = std::string(dtype_name(p.dtype)) + " " + p.layout.name() + " " +
                               std::to_string(static_cast<int>(p.moe.gemm)) + " " + std::to_string(p.moe.quant_block);
      auto it = values.find(kind);
      if (it == values.end()) it = values.emplace(kind, field_values(p, profile, target)).first;
      v = &it->second;
    }
    if (v->holds(c.config)) continue;
    if ((*outside)++ == 0)
      *first = fmt::format("line {}: {} for {}", c.line, c.config.text(), shape.problem.shape_text());
  }
}

}  // namespace

std::vector<MeasuredShape> read_measured_shapes(const std::vector<std::string>& paths, const std::string& kernel,
                                                const Profile& profile, const Target& target, bool keep_vendor_only,
                                                const MeasurementLog& log_to) {
  const MeasurementLog log = log_to ? log_to : [](LogLevel, const std::string&) {};
  if (paths.empty()) throw InputError("no measurement file given");
  std::vector<MeasuredShape> shapes;
  // shape key -> (the file that measured it first, its index in shapes)
  std::map<std::string, std::pair<std::string, std::size_t>> measured_in;
  // Shape, dtype and layout (the key without family and name) -> the keys measured with them: a
  // re-time file without family and name columns is the same shape as an earlier file's named one
  // (it was counted twice, and could sit on both sides of a family fold: a fresh user's find,
  // 2026-12-05).
  std::map<std::string, std::vector<std::string>> keys_of_shape;
  std::vector<std::pair<std::string, std::uintmax_t>> sizes;  // (path, its size) of the regular files read so far
  // Files with none of the kernel's rows but another kernel's: (file, its kernels). Warned of when
  // other files hold the kernel's rows (such a file added nothing unsaid), one error when none does
  // (it asked for kernel=triton rows without naming the file's: fresh user's finds, 2026-12-04).
  std::vector<std::pair<std::string, std::set<std::string>>> without_kernel;
  std::map<std::string, FieldValues> space_values;  // count_outside_space's, per kind of problem
  for (const std::string& path : paths) {
    std::vector<std::string> warnings;
    std::set<std::string> other_kernels;
    auto file_shapes = read_measurements(path, kernel, &warnings, &other_kernels);
    if (!other_kernels.empty() &&
        std::none_of(file_shapes.begin(), file_shapes.end(), [](const MeasuredShape& m) { return !m.configs.empty(); }))
      without_kernel.emplace_back(path, std::move(other_kernels));
    // A byte-identical copy under another name is the same measurements given twice: merged, every
    // config would count as re-timed and agree with itself (a fresh user's find: merged unsaid).
    // Compared by streaming (a measurement file may be larger than read_text_file takes whole); a
    // pipe reads empty a second time, so only regular files are.
    // Sizes tell plain files apart without reading them; a .gz is compared whole (decompressed).
    std::error_code ec;
    if (paths.size() > 1 && std::filesystem::is_regular_file(path, ec)) {
      const std::uintmax_t size = std::filesystem::file_size(path, ec);
      for (const auto& [earlier, earlier_size] : sizes) {
        const bool gzip = is_gzip_path(path) || is_gzip_path(earlier);
        if (!ec && (earlier_size == size || gzip) && !same_file(earlier, path) && same_bytes(earlier, path))
          throw InputError(path + (gzip ? ": the same bytes, decompressed, as " : ": the same bytes as ") + earlier +
                           ": the same measurements given twice");
      }
      if (!ec) sizes.emplace_back(path, size);
    }
    for (const std::string& w : warnings) log(LogLevel::warning, w);
    std::size_t retimed = 0, disagree = 0;
    std::size_t timed = 0, too_fast = 0;  // the file's ok configs, and those faster than the peak allows
    std::size_t timed_shapes = 0, shapes_too_fast = 0;  // ... its shapes, and those that lost rows (their best) so
    std::size_t shapes_too_slow = 0;  // ... and those whose best is far slower than the model puts any of them
    std::string first_too_slow;       // the first of those, "file:line: SHAPE DTYPE"
    std::size_t rows_too_slow = 0;    // ok rows of the other shapes far slower than the model puts their config
    std::string first_row_too_slow;   // the first of those, "file:line: SHAPE CONFIG timed ..., predicted ..."
    std::vector<std::string> peak_warnings;
    bool variant_warned = false;  // once per file
    bool encoding_warned = false;  // an fp8 encoding the GPU does not compute: once per file
    std::size_t outside_space = 0;  // timed configs the target would run but never proposes
    std::string first_outside;      // the first of them, "line L: CONFIG for SHAPE"
    std::size_t refused = 0;        // timed configs that ran but the target's rules refuse
    std::string first_refused;      // the first of them, "line L: CONFIG for SHAPE: why"
    for (auto& shape : file_shapes) {
      if (shape.configs.empty() && !keep_vendor_only) continue;  // another kernel's problem (vendor rows only)
      const std::string base = unscored_text(shape.problem);
      // A problem is its shape and its family and name where the file gives them, as read_measurements
      // groups a file's rows (a shape in two families of one file, with no name, was two problems
      // there and "the same file given twice" here: a fresh user's find, 2026-12-06).
      const bool labelled = !shape.family.empty() || !shape.name.empty();
      std::string key = base + (labelled ? " " + shape.family + "/" + shape.name : "");
      // Unlabelled here and measured under one label before, or labelled here and measured unlabelled
      // alone before: the same problem.
      if (!measured_in.count(key)) {
        const std::vector<std::string>& earlier = keys_of_shape[base];
        if (earlier.size() == 1 && (!labelled || earlier.front() == base) &&
            !same_file(measured_in[earlier.front()].first, path))
          key = earlier.front();
      }
      const long line = shape.configs.empty() ? 0 : shape.configs.front().line;
      if (!shape.configs.empty()) {
        if (!profile.hw.rate(shape.problem.dtype))
          throw InputError(located(path, line, "dtype " + std::string(dtype_name(shape.problem.dtype)) +
                                                   " is not supported by " + profile.hw.name));
        require_measured_for(path, line, shape, profile, target, &variant_warned, log);
        // Timed in an fp8 encoding this GPU does not compute (FNUZ on an H200): rank and batch say
        // so for a --dtype, a measurement file said nothing (a fresh user's find, 2026-12-07).
        // The question of another GPU where dtype_format_warning says it fits.
        if (bool another_gpu = false; !encoding_warned)
          if (const std::string w = dtype_format_warning(shape.dtype_text, profile.hw, &another_gpu); !w.empty()) {
            encoding_warned = true;
            log(LogLevel::warning, located(path, line, another_gpu ? w + " (were these rows timed on another GPU?)" : w));
          }
        count_outside_space(shape, profile, target, space_values, &outside_space, &first_outside, &refused,
                            &first_refused);
        for (const MeasuredConfig& c : shape.configs) timed += c.status == "ok";
        // The shape's context once, for its launch overhead and its configs' predictions.
        const EstimateContext ctx = target.context(shape.problem, profile);
        // The launch a time may not beat: the target's own figure, or the profile's where lower. A
        // calibrated profile's fitted launch overhead (12 us in a fresh user's fit, 3 us shipped)
        // refused their 2.2 us CUDA-graph timings as "not in milliseconds" (2026-12-05).
        const double launch_s = std::min(
            ctx.params.launch_overhead_s,
            target.variant_default_params(target.param_variant(shape.problem)).launch_overhead_s);
        const std::size_t dropped =
            drop_faster_than_peak(path, shape, profile.hw, kShortestLaunchFraction * launch_s, &peak_warnings);
        too_fast += dropped;
        timed_shapes += std::any_of(shape.configs.begin(), shape.configs.end(),
                                    [](const MeasuredConfig& c) { return c.status == "ok" || c.status == kStatusFasterThanPeak; });
        shapes_too_fast += dropped > 0;
        const SlowerThanPredicted slower = slower_than_predicted(shape, ctx, target);
        if (!slower.shape && slower.first && rows_too_slow == 0)
          first_row_too_slow = fmt::format("{}:{}: {} {} timed {:.4g} ms, predicted {:.4g} ms",
                                           path, slower.first->line, shape.problem.shape_text(),
                                           slower.first->config.text(), slower.first->ms,
                                           slower.first_predicted_s * 1e3);
        if (!slower.shape) rows_too_slow += slower.rows;
        if (slower.shape) {
          // Named once (the first), counted after: in a file otherwise right it is that shape's slip,
          // left out (scored, and fitted by calibrate, its times skewed the fit: a fresh user's finds,
          // 2026-12-04).
          if (shapes_too_slow++ == 0) first_too_slow = located(path, line, shape.problem.shape_text() + " " +
                                                                                std::string(dtype_name(shape.problem.dtype)));
          for (MeasuredConfig& c : shape.configs)
            if (c.status == "ok") c.status = std::string(kStatusFarSlowerThanModel);
        }
      }
      const auto [it, fresh] = measured_in.try_emplace(key, path, shapes.size());
      if (fresh) {
        keys_of_shape[base].push_back(key);
        shapes.push_back(std::move(shape));
      } else if (same_file(it->second.first, path)) {
        // The problem as a reader sees it: family/name, or the family alone ("fa/" read oddly: a fresh
        // user's find, 2026-12-06).
        const std::string shown = base + (labelled ? " " + family_label(shape.family, shape.name) : std::string());
        throw InputError(located(path, line, "shape " + shown + " is measured in " + it->second.first +
                                                 " too: the same file is given twice"));
      } else {
        // One device per shape across files too, as within one (read_measurements): timings of two
        // devices (a whole GPU and a MIG slice, an H200 and an H200 NVL) must not merge.
        const std::string& earlier_gpu = shapes[it->second.second].gpu;
        if (!shape.gpu.empty() && !earlier_gpu.empty() && shape.gpu != earlier_gpu)
          throw InputError(located(path, line, "column 'gpu': '" + printable(shape.gpu) + "' differs from '" +
                                                   printable(earlier_gpu) + "' of shape " + key + " in " +
                                                   it->second.first + " (one device per shape)"));
        merge_measured_shape(shapes[it->second.second], std::move(shape), &retimed, &disagree);  // a re-measurement
      }
    }
    // Most of a file faster than the peak allows is not a few bad timings but a unit slip (seconds in
    // the 'ms' column): scoring the rows left would pass that off as a result.
    // With --cu-count below the product's, the likelier cause is a file timed on the whole GPU.
    const bool partition = profile.hw.product_cu_count > profile.hw.cu_count;
    if (timed >= 10 && 2 * too_fast > timed)
      throw InputError(path + ": " + std::to_string(too_fast) + " of its " + std::to_string(timed) +
                       " timed configs are faster than " + profile.hw.name + "'s peak, DRAM and L2 bandwidth and launch allow" +
                       (partition ? " on " + std::to_string(profile.hw.cu_count) +
                                        " CUs: were they timed on more (--cu-count)? or is the 'ms' column not "
                                        "in milliseconds?"
                                  : ": is the 'ms' column in milliseconds?"));
    // Most shapes losing their fastest rows so is another GPU's file (a faster one: an H200's scored
    // on --hw a100 lost 35-55 rows of 7 of 9 shapes, and the rest was fitted as if complete).
    if (shapes_too_fast >= 2 && 2 * shapes_too_fast > timed_shapes)
      throw InputError(path + ": " + std::to_string(shapes_too_fast) + " of its " + std::to_string(timed_shapes) +
                       " shapes have configs timed faster than " + profile.hw.name + "'s peak, DRAM and L2 bandwidth and launch allow" +
                       (partition ? " on " + std::to_string(profile.hw.cu_count) +
                                        " CUs: were they timed on more (--cu-count)?"
                                  : ": measured on a faster GPU? (give that GPU's profile with --hw)"));
    // The other unit slip, times in microseconds: every shape 1000x slower than the model has any of
    // its configs (it passed the peak check and was scored as if right: a fresh user's find).
    if (shapes_too_slow >= 1 && 2 * shapes_too_slow > timed_shapes)
      throw InputError(path + ": " + std::to_string(shapes_too_slow) + " of its " + std::to_string(timed_shapes) +
                       " shapes measured over " + fmt::format("{:g}", kFarSlowerThanPredicted) +
                       "x slower than the model predicts any of their configs on " + profile.hw.name +
                       ": is the 'ms' column in milliseconds (not microseconds)?");
    if (shapes_too_slow > 0)
      log(LogLevel::warning, fmt::format("{}: measured over {:g}x slower than the model predicts any of its configs on {}: a time in "
                   "microseconds, or another GPU's? Left out{}", first_too_slow, kFarSlowerThanPredicted, profile.hw.name,
                   shapes_too_slow > 1 ? fmt::format(" ({} such shapes in the file)", shapes_too_slow) : std::string()));
    if (rows_too_slow > 0)
      log(LogLevel::warning,
          fmt::format("{}: {} timed config{} over {:g}x slower than the model predicts for {} config on {} "
                      "(first: {}): microseconds among milliseconds, or a bad run? Scored as given",
                      path, rows_too_slow, rows_too_slow == 1 ? "" : "s", kFarSlowerThanPredicted,
                      rows_too_slow == 1 ? "its" : "their", profile.hw.name, first_row_too_slow));
    for (const std::string& w : peak_warnings) log(LogLevel::warning, w);
    if (outside_space > 0)
      log(LogLevel::warning,
          fmt::format("{}: {} timed config{} outside {}'s candidate space (warps, stages or group_m it never takes; first: {}): "
                      "ranked as given, but the advisor never proposes such a config (if another kernel was timed, give its --target)",
                      path, outside_space, outside_space == 1 ? " is" : "s are", target.name(), first_outside));
    // Every timed config of the file refused: an error naming the first row and its reason (the
    // caller's "nothing to score" named neither, and a file refused beside good ones went unsaid: a
    // fresh user's find, 2026-12-07).
    if (refused > 0 && refused == timed)
      throw InputError(fmt::format("{}: every timed config ({}) is infeasible by {}'s rules (first: {}): another "
                                   "kernel's space (give its --target), another GPU's rows (give its --hw), or a typo?",
                                   path, refused, target.name(), first_refused));
    if (refused > 0 && refused < timed)
      log(LogLevel::warning,
          fmt::format("{}: {} timed config{} that ran {} infeasible by {}'s rules (first: {}): left out of the "
                      "ranking; a typo, another kernel's space (give its --target), or another GPU's rows (give its "
                      "--hw; a gpu column lets this be checked)?",
                      path, refused, refused == 1 ? "" : "s", refused == 1 ? "is called" : "are called", target.name(),
                      first_refused));
    log(LogLevel::debug, fmt::format("{}: {} shapes read for kernel {} ({} in all so far)", path, file_shapes.size(), kernel,
                                     shapes.size()));
    if (retimed > 0)
      log(disagree > 0 ? LogLevel::warning : LogLevel::info,
          fmt::format("{}: {} config{} timed in an earlier file too (each counts at its faster time); {} of {} differ{} "
                  "by more than {:g}x", path, retimed, retimed == 1 ? "" : "s", disagree, retimed == 1 ? "it" : "them",
                  disagree == 1 ? "s" : "", kRetimeDisagreement));
  }
  auto kernels_text = [](const std::set<std::string>& kernels) {
    std::string names;
    for (const std::string& k : kernels) names += (names.empty() ? "" : ", ") + printable(k);
    return names;
  };
  const bool none_of_kernel =
      std::none_of(shapes.begin(), shapes.end(), [](const MeasuredShape& m) { return !m.configs.empty(); });
  if (none_of_kernel && !without_kernel.empty())
    throw InputError(fmt::format("{}", fmt::join(paths, ", ")) + ": no row of the " + kernel + " kernel; " +
                     (paths.size() == 1 ? "its" : without_kernel.front().first + "'s") + " kernels: " +
                     kernels_text(without_kernel.front().second) + " (give --kernel " +
                     printable(*without_kernel.front().second.begin()) + ", or the --target that is that kernel)");
  if (!none_of_kernel)
    for (const auto& [path, kernels] : without_kernel)
      log(LogLevel::warning, fmt::format("{}: no row of the {} kernel, so it adds nothing; its kernels: {} (a file of another set?)", path,
                   kernel, kernels_text(kernels)));
  // A shape whose every timed config failed (compile errors, wrong results, timeouts) has nothing to
  // score: left out, said once with a count (it went unsaid, the shape count one short: a fresh
  // user's find, 2026-12-05). Those left out by the timing checks were said above.
  std::size_t all_failed = 0;
  std::string first_failed;
  for (const MeasuredShape& m : shapes) {
    if (m.configs.empty() || std::any_of(m.configs.begin(), m.configs.end(), [](const MeasuredConfig& c) {
          return c.status == "ok" || is_timing_check_status(c.status);
        }))
      continue;
    if (all_failed++ == 0)
      first_failed = located(m.configs.front().source ? *m.configs.front().source : std::string("?"),
                             m.configs.front().line,
                             m.problem.shape_text() + " " + std::string(dtype_name(m.problem.dtype)) + " " +
                                 m.problem.layout.name());
  }
  if (all_failed > 0)
    log(LogLevel::warning,
        fmt::format("{}: no config of the shape ran (every row's status is a failure): left out{}", first_failed,
                    all_failed > 1 ? fmt::format(" ({} such shapes in all)", all_failed) : std::string()));
  return shapes;
}

}  // namespace gemm_advisor
