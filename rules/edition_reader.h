#pragma once
// The edition loader's reading of TOML, private to rules/: `Reader` takes typed values out of a table and
// blames the key (file, line) of anything that is not what it should be, by throwing `Fail`, which the
// loader's entry points (parse_edition, load_edition) turn into an EditionError. `read_edition_tree`
// reads a file and everything it `extends` into one table (edition_extends.cpp).
// Owns: nothing beyond the file name it blames. Must never: let a `Fail` out of rules/ (the entry points
// catch it), or read a file of more than kMaxEditionFileBytes. Thread: any; a Reader is one call's.
#include <fmt/format.h>
#include <toml++/toml.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "rules/edition.h"
#include "rules/input_limits.h"

namespace bb::rules::edition_files {

struct Fail {
  EditionError error;
};

class Reader {
 public:
  explicit Reader(std::string file) : file_(std::move(file)) {}

  [[noreturn]] void fail(const toml::node* node, int fallback_line, std::string key,
                         std::string message) const {
    int line = node ? static_cast<int>(node->source().begin.line) : fallback_line;
    // A node copied from the edition this one extends names its own file.
    std::string file = node && node->source().path ? *node->source().path : file_;
    throw Fail{EditionError{std::move(file), line, std::move(key), std::move(message)}};
  }

  static int line_of(const toml::node& node) { return static_cast<int>(node.source().begin.line); }

  long long integer(const toml::table& t, std::string_view key, long long fallback,
                    bool required = false) const {
    const toml::node* n = t.get(key);
    if (!n) {
      if (required) fail(&t, 0, std::string(key), "this key is required");
      return fallback;
    }
    if (auto v = n->value<long long>(); v && n->is_integer()) return *v;
    fail(n, 0, std::string(key), fmt::format("expected a whole number, found {}", type_name(*n)));
  }

  // A whole number that must fit an int before the checks of meaning see it (never wrapped).
  int small_integer(const toml::table& t, std::string_view key, int fallback) const {
    const long long v = integer(t, key, fallback);
    constexpr long long kLimit = 1'000'000'000;
    if (v < -kLimit || v > kLimit)
      fail(t.get(key), 0, std::string(key),
           out_of_range_message(key, std::to_string(v), "a count", -kLimit, kLimit));
    return static_cast<int>(v);
  }

  bool boolean(const toml::table& t, std::string_view key, bool fallback) const {
    const toml::node* n = t.get(key);
    if (!n) return fallback;
    if (n->is_boolean()) return *n->value<bool>();
    fail(n, 0, std::string(key), fmt::format("expected true or false, found {}", type_name(*n)));
  }

  std::string string(const toml::table& t, std::string_view key, std::string fallback,
                     bool required = false) const {
    const toml::node* n = t.get(key);
    if (!n) {
      if (required) fail(&t, 0, std::string(key), "this key is required");
      return fallback;
    }
    if (n->is_string()) return *n->value<std::string>();
    fail(n, 0, std::string(key), fmt::format("expected a string in quotes, found {}", type_name(*n)));
  }

  std::vector<Money> amounts(const toml::table& t, std::string_view key) const {
    std::vector<Money> out;
    const toml::node* n = t.get(key);
    if (!n) return out;
    const toml::array* arr = n->as_array();
    if (!arr)
      fail(n, 0, std::string(key), fmt::format("expected a list of amounts, found {}", type_name(*n)));
    for (const auto& item : *arr) {
      if (!item.is_integer() || *item.value<long long>() < 0)
        fail(&item, line_of(*n), std::string(key), "expected amounts as whole numbers, 0 or more");
      out.push_back(*item.value<long long>());
    }
    return out;
  }

  static std::string type_name(const toml::node& n) {
    switch (n.type()) {
      case toml::node_type::string:
        return "a string";
      case toml::node_type::integer:
        return "a whole number";
      case toml::node_type::floating_point:
        return "a decimal number";
      case toml::node_type::boolean:
        return "true/false";
      case toml::node_type::array:
        return "a list";
      case toml::node_type::table:
        return "a table";
      default:
        return "a date or time";
    }
  }

  const std::string& file() const { return file_; }

 private:
  std::string file_;
};

inline std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

// The text of an edition file as TOML; a syntax error is a Fail naming its line.
toml::table parse_toml(std::string_view text, const std::string& file);

// Reads the edition file at `path` and everything it extends into one TOML table: the base found beside the
// file or in `search_dirs`, patched by the file (at most kMaxExtendsDepth levels; `depth` is this file's).
toml::table read_edition_tree(const std::string& path, const std::vector<std::string>& search_dirs,
                              int depth);

}  // namespace bb::rules::edition_files
