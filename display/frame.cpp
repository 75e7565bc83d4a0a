#include "display/frame.h"

namespace bb::display {

const Target* Frame::find(const std::string& id) const {
  for (const auto& t : targets)
    if (t.id == id) return &t;
  return nullptr;
}

const Target* Frame::hit(int x, int y) const {
  const Target* best = nullptr;
  for (const auto& t : targets)
    if (t.rect.contains(x, y) && (!best || t.layer >= best->layer)) best = &t;
  return best;
}

std::vector<const DrawOp*> Frame::texts() const {
  std::vector<const DrawOp*> out;
  for (const auto& op : ops)
    if (op.kind == DrawOp::Kind::text) out.push_back(&op);
  return out;
}

bool Frame::shows(const std::string& fragment) const {
  // Labels in drawing order, joined, so that a wrapped paragraph is found as the sentence it is.
  std::string all;
  for (const auto& op : ops)
    if (op.kind == DrawOp::Kind::text) {
      if (op.text.find(fragment) != std::string::npos) return true;
      all += op.text;
      all += ' ';
    }
  return all.find(fragment) != std::string::npos;
}

}  // namespace bb::display
