#pragma once
/// @file apsp.hpp
/// Umbrella header: everything in apsp's public API.

#include "apsp/error.hpp"
#include "apsp/estimate.hpp"
#include "apsp/graph.hpp"
#include "apsp/hierarchy.hpp"
#include "apsp/io.hpp"
#include "apsp/matrix.hpp"
#include "apsp/metrics.hpp"
#include "apsp/options.hpp"
#include "apsp/pair.hpp"
#include "apsp/plan.hpp"
#include "apsp/result.hpp"
#include "apsp/solve.hpp"
#include "apsp/sources.hpp"
#include "apsp/stats.hpp"
#include "apsp/table.hpp"
#include "apsp/types.hpp"
