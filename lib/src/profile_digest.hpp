#pragma once
// What a calibrated overlay records of the figures its fit saw (profile.cpp, calibrate.cpp).
#include <yaml-cpp/yaml.h>

#include <string>

namespace gemm_advisor {

/// A digest of a profile's figures that a fit's model parameters depend on: `vendor`, `arch`, `isa`
/// and the `compute`, `memory`, `efficiency`, `matrix` and `triton` sections (`root`: the whole
/// profile's YAML), less `compute.active_cu_count` and `triton.max_split_k`, which calibrate writes
/// for a run. Canonical: key order, comments, layout and number spelling (1830, 1830.0) do not
/// change it. calibrate writes it as `calibration.hardware_digest`; parse_profile warns where a file's
/// figures no longer match it (a hand edit after the fit).
std::string hardware_figures_digest(const YAML::Node& root);

}  // namespace gemm_advisor
