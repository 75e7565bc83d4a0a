#include <fmt/format.h>
#include <toml++/toml.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "rules/edition_reader.h"
#include "rules/input_limits.h"

// One edition built on another (`extends`): reading the chain of files and patching each base with the file
// that extends it. The edition's meaning is built and checked afterwards from the one merged table.
namespace bb::rules::edition_files {

toml::table parse_toml(std::string_view text, const std::string& file) {
  try {
    return toml::parse(text, file);
  } catch (const toml::parse_error& e) {
    throw Fail{EditionError{file, static_cast<int>(e.source().begin.line), "",
                            fmt::format("not valid TOML: {}", e.description())}};
  }
}

namespace {

// Where a key of an extending file patches the base: tables merge key by key, arrays of tables merge entry by
// entry (spaces by `index`, groups and decks by `id`, a deck's cards by `id`), anything else replaces.
void merge_table(toml::table& base, const toml::table& child, const Reader& r,
                 std::vector<std::pair<std::string, std::string>>& renames);

void merge_by_id(toml::array& base, const toml::array& child, std::string_view key, const Reader& r,
                 std::vector<std::pair<std::string, std::string>>& renames) {
  for (const auto& item : child) {
    const toml::table* c = item.as_table();
    if (!c) r.fail(&item, 0, std::string(key), "expected tables");
    std::string id = r.string(*c, "id", "", true);
    toml::table* target = nullptr;
    for (auto& b : base)
      if (auto* bt = b.as_table(); bt && bt->get("id") && bt->get("id")->value_or(std::string()) == id)
        target = bt;
    if (target)
      merge_table(*target, *c, r, renames);
    else
      base.push_back(*c);
  }
}

void merge_spaces(toml::array& base, const toml::array& child, const Reader& r,
                  std::vector<std::pair<std::string, std::string>>& renames) {
  for (const auto& item : child) {
    const toml::table* c = item.as_table();
    if (!c) r.fail(&item, 0, "space", "expected [[space]] tables");
    long long index = r.integer(*c, "index", -1, true);
    if (index < 0 || index >= static_cast<long long>(base.size()))
      r.fail(c->get("index"), 0, "index",
             fmt::format("the edition this one extends has spaces 0 to {}: index {} is not one of them",
                         base.size() - 1, index));
    toml::table& target = *base[static_cast<std::size_t>(index)].as_table();
    std::string old_name = r.string(target, "name", "");
    merge_table(target, *c, r, renames);
    target.erase("index");
    std::string new_name = r.string(target, "name", "");
    if (lower(old_name) != lower(new_name)) renames.emplace_back(old_name, new_name);
  }
}

void merge_table(toml::table& base, const toml::table& child, const Reader& r,
                 std::vector<std::pair<std::string, std::string>>& renames) {
  for (const auto& [key, value] : child) {
    std::string_view k = key.str();
    if (k == "extends") continue;
    toml::node* existing = base.get(k);
    // `[option.NAME] removed = true` (or any table so marked) drops what the base has under that name.
    if (const toml::table* t = value.as_table(); t && t->get("removed")) {
      if (!(*t)["removed"].value_or(false) || t->size() != 1)
        r.fail(t, 0, std::string(k), "a table marked removed holds only removed = true");
      base.erase(k);
      continue;
    }
    if (existing && existing->is_table() && value.is_table()) {
      merge_table(*existing->as_table(), *value.as_table(), r, renames);
    } else if (existing && existing->is_array() && value.is_array() && k == "space") {
      merge_spaces(*existing->as_array(), *value.as_array(), r, renames);
    } else if (existing && existing->is_array() && value.is_array() &&
               (k == "group" || k == "deck" || k == "card")) {
      merge_by_id(*existing->as_array(), *value.as_array(), k, r, renames);
    } else {
      base.insert_or_assign(k, value);
    }
  }
}

// Effects name spaces by their names: a space the extending file renames is renamed in them too.
void rename_in_effects(toml::node& node, const std::vector<std::pair<std::string, std::string>>& renames) {
  if (toml::table* t = node.as_table()) {
    for (auto&& [key, value] : *t) {
      if (key.str() == "space" && value.is_string()) {
        std::string v = lower(*value.value<std::string>());
        for (const auto& [from, to] : renames)
          if (lower(from) == v) {
            value.as_string()->get() = to;
            break;
          }
      } else {
        rename_in_effects(value, renames);
      }
    }
  } else if (toml::array* a = node.as_array()) {
    for (auto& item : *a) rename_in_effects(item, renames);
  }
}

}  // namespace

constexpr int kMaxExtendsDepth = 4;

toml::table read_edition_tree(const std::string& path, const std::vector<std::string>& search_dirs,
                              int depth) {
  namespace fs = std::filesystem;
  // A folder opens as an empty file on Linux: it would be refused as an edition without an id.
  if (std::error_code error; fs::is_directory(path, error))
    throw Fail{
        EditionError{path, 0, "", "this is a folder, not an edition file: give the path of a .toml file"}};
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Fail{EditionError{path, 0, "", "cannot read this edition file: check the path"}};
  // Reads at most one byte more than an edition may hold, so an endless device is refused, not read.
  std::string text(kMaxEditionFileBytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  // A read that failed part-way (a disk error) must not be read as a shorter edition.
  if (in.bad())
    throw Fail{
        EditionError{path, 0, "", "this file could not be read to its end: check the disk, or copy it"}};
  text.resize(static_cast<std::size_t>(in.gcount()));
  if (text.size() > kMaxEditionFileBytes)
    throw Fail{EditionError{path, 0, "",
                            fmt::format("this file is larger than {} bytes, the most an edition file may be: "
                                        "is it an edition file?",
                                        kMaxEditionFileBytes)}};
  if (auto nul = text.find('\0'); nul != std::string::npos)
    throw Fail{EditionError{
        path, 0, "",
        fmt::format("this file holds a NUL byte (at byte {}): an edition file is TOML text", nul + 1)}};
  toml::table root = parse_toml(text, path);
  Reader r(path);
  const toml::node* ext = root.get("extends");
  if (!ext) return root;
  std::string base_id = r.string(root, "extends", "");
  if (depth >= kMaxExtendsDepth)
    r.fail(ext, 0, "extends", "editions extend each other too deeply (or in a circle): at most 4 levels");
  // The base is looked for beside this file first, then in the usual edition folders.
  std::vector<fs::path> candidates = {fs::path(path).parent_path() / (base_id + ".toml")};
  for (const auto& dir : search_dirs) candidates.push_back(fs::path(dir) / (base_id + ".toml"));
  for (const auto& candidate : candidates) {
    if (!fs::exists(candidate)) continue;
    if (fs::weakly_canonical(candidate) == fs::weakly_canonical(path))
      r.fail(ext, 0, "extends", "an edition cannot extend itself");
    toml::table base = read_edition_tree(candidate.string(), search_dirs, depth + 1);
    std::vector<std::pair<std::string, std::string>> renames;
    merge_table(base, root, r, renames);
    if (!renames.empty()) {
      if (toml::node* spaces = base.get("space")) rename_in_effects(*spaces, renames);
      if (toml::node* decks = base.get("deck")) rename_in_effects(*decks, renames);
    }
    return base;
  }
  r.fail(ext, 0, "extends",
         fmt::format("no edition '{}' to extend beside this file or in the edition folders", base_id));
}

}  // namespace bb::rules::edition_files
