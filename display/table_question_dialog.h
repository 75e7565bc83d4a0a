#pragma once
#include <string>

#include "display/table_question.h"
#include "display/ui_context.h"
#include "display/view.h"

namespace bb::display {

// Shows the table's own question (Snapshot::table_question: the camera disagrees with the dice, an unknown
// card, a payment waiting for a tap, a card to pick) with its options; an option that needs the dice or the
// banker's PIN asks for them first. Answers go out as AnswerQuestion; the table decides what follows.
// Ui opens it whenever the snapshot holds a question and no other dialog is open, and closes it when the
// question is gone. Thread: the loop thread, like Ui.
class TableQuestionDialog : public View {
 public:
  explicit TableQuestionDialog(TableQuestion question) : question_(std::move(question)) {}
  void build(FrameBuilder& fb, UiContext& ui) override;
  bool on_card(const std::string& uid, std::optional<rules::PlayerId> player, UiContext& ui) override;
  const std::string& question_id() const { return question_.id; }
  // The same question as the table holds it now: its options change while it is open (a card reader gone
  // adds a Confirm button; one back removes it).
  void update(const TableQuestion& question) { question_ = question; }

 private:
  // Static: it runs from dialogs opened over this one, after this one was closed.
  static void choose(UiContext& ui, const TableQuestion& question, const TableQuestion::Option& option);
  TableQuestion question_;
};

}  // namespace bb::display
