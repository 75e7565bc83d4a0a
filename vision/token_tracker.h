#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "vision/board_calibrator.h"
#include "vision/motion_detector.h"
#include "vision/space_map.h"
#include "vision/still_average.h"
#include "vision/token_appearance.h"
#include "vision/token_locator.h"
#include "vision/tracker_event.h"

namespace cv {
class Mat;
}

namespace bb::vision {

// Turns a stream of frames into token events. Nothing is decided while the scene moves: a decision needs
// the scene still for `still_frames`, then `agree_frames` frames that agree; below the locator's confidence
// threshold the answer is "unsure" with candidates, never a silent guess. When the scene settles, the
// markers are checked again, so a nudged board or camera is re-estimated without losing any position.
class TokenTracker {
 public:
  struct Settings {
    int still_frames = 2;
    int agree_frames = 3;
    double bump_px = 2.5;       // corner shift that counts as the board or camera having moved
    int start_space = 0;        // where the tokens stand when they are learned
    int not_found_every = 150;  // frames between repeated "board not found" reports
    // Still frames after which a token whose look keeps changing is asked about instead of waited for.
    int settle_limit_frames = 24;
    // Still frames whose top views are averaged before the tokens are looked at: sensor noise and JPEG
    // blocks differ from frame to frame, a still token does not. Up to this many frames since the scene
    // last moved are averaged equally, later ones with this weight's share (a slow change of light is
    // followed); 1 looks at each frame alone.
    int average_frames = 8;
    // How many tokens the table expects (its players); 0: as many as are found. With a number, a start
    // that shows fewer (or more) is reported (learn_incomplete) and looked at again until they agree or
    // the table accepts what was found.
    int expected_tokens = 0;
    enum class Learning {
      all_on_start_space,  // every token stands on `start_space` at once (GO), learned together
      one_at_a_time,       // the board is empty at first; each token is put down alone, anywhere
    };
    Learning learning = Learning::all_on_start_space;
    // Moves of other tokens while a token is not seen, after which it is reported lost. While waiting for
    // a token to be put down, a still scene showing nothing new for `settle_limit_frames` after something
    // moved is said too (learn_incomplete: the token looks like the board there).
    int lost_after_moves = 4;
    TokenLocator::Settings locator;
    MotionDetector::Settings motion;
  };

  TokenTracker(const SpaceMap& map, Settings settings, MarkerLayout markers = {});
  ~TokenTracker();
  TokenTracker(const TokenTracker&) = delete;
  TokenTracker& operator=(const TokenTracker&) = delete;

  std::vector<TrackerEvent> process(const cv::Mat& frame, int64_t frame_index);
  // The camera was lost and has come back: whatever it shows now is checked afresh.
  void camera_restarted();
  // The table confirms that the tokens found at the start are all there are (fewer players than
  // expected): they are learned at the next still look.
  void accept_found_tokens();
  // The next token put down alone anywhere on the board, still, is learned by its difference from the
  // empty board and called `name` (empty: T<n>). For a token the start did not find, or, with
  // Learning::one_at_a_time, each token in turn (the table prompts "Ann: put your car on the board").
  // Needs the empty board: after the start was learned, or in one_at_a_time mode at any time.
  void learn_next_token(std::string name = {});
  // The family goes on without token `name` (the camera cannot see it; the table's "go on without it": the
  // dice move it). One token fewer is expected, and the tracker stops waiting for it when it was the one
  // awaited: with every other expected token learned it waits for none, so nothing put down later in the
  // game (a house, a stray piece) is ever learned as that token.
  void leave_token_to_dice(const std::string& name);
  // The table settled a question (unsure) about token `name`: the family said it stands on `space`. It is
  // taken as decided there (not asked again); its blob on that space in the last decided view, if it was
  // seen there alone, becomes its remembered one, so that a look-alike's later move is told by elimination
  // instead of asked about too. The question's other spaces are refuted for it: a sure look at it there
  // later is asked about, never reported as a move. Called on the camera thread, like process(): the daemon
  // hands it the table's answers (table::Reaction::camera_settled), the accuracy bench's evaluator the truth.
  void settle(const std::string& name, int space);
  // True while the tracker waits for a token to be put down (ready_for_token was said).
  bool waiting_for_token() const { return awaiting_new_token_; }

  // A stored set-up: tokens, where they stand, and the empty-board reference (PNG beside the JSON).
  std::expected<void, std::string> save_setup(const std::string& json_path) const;
  std::expected<void, std::string> load_setup(const std::string& json_path);

  bool calibrated() const { return calibration_.has_value(); }
  bool learned() const { return !tokens_.empty(); }
  const std::optional<Calibration>& calibration() const { return calibration_; }
  const std::vector<TokenAppearance>& tokens() const { return tokens_; }
  const std::vector<int>& positions() const { return positions_; }
  const SpaceMap& space_map() const { return map_; }
  std::string invariant_problem() const;
  // What a deciding frame in play makes of the top view: the ring of spaces and a margin around it (the
  // locator reads nothing else then). `ring_region()` marks its pixels (CV_8U, the top view's size), which
  // are averaged (StillAverage); `ring_parts()` are rectangles (x, y, width, height) around the board's
  // middle that cover it, which are warped. Public for the speed bench, which times the same steps.
  const cv::Mat& ring_region() const { return *ring_region_; }
  const std::vector<std::array<int, 4>>& ring_parts() const { return ring_parts_; }

 private:
  struct Pending {
    std::vector<std::string> signatures;  // per token: its space, "?" and candidates, or "h"
    std::vector<TokenObservation> observations;
  };
  void decide(size_t token, const TokenObservation& seen, int64_t frame_index,
              std::vector<TrackerEvent>& events);
  std::string signature(const TokenObservation& seen) const;
  // The pending frames disagree only in how sure they are of one space: that reading as a question.
  std::optional<TokenObservation> doubtful_agreement(size_t token) const;
  std::expected<Calibration, std::string> fit_board(const cv::Mat& frame,
                                                    const std::optional<Calibration>& previous) const;
  void check_board(const cv::Mat& frame, int64_t frame_index, std::vector<TrackerEvent>& events);
  // A fit from more markers than the one in use, of the same board (not a bump): it becomes the calibration,
  // and a reference taken through the old fit is re-warped to it, so every later frame is compared with
  // the empty board through the same fit.
  void adopt_better_fit(const Calibration& better);
  void unsettle();  // something moved: every token is to be decided again once the scene is still
  void learn_at_start(const cv::Mat& top, int64_t frame_index, std::vector<TrackerEvent>& events);
  // A token put down alone: learned once the same new thing is seen over `agree_frames` still frames.
  // `seen` is this frame's look at the learned tokens: a "new" thing where a learned token now stands, sure,
  // off its own space, is that token moved (the table went on without a token it could not see, and the
  // tracker still waits for one), never a new token.
  bool learn_new_token(const cv::Mat& top, const std::vector<TokenObservation>& seen, int64_t frame_index,
                       std::vector<TrackerEvent>& events);
  void adopt_tokens(std::vector<TokenAppearance> tokens, std::vector<int> positions);
  std::string next_token_name() const;
  void count_unseen(size_t moved_token, int64_t frame_index, std::vector<TrackerEvent>& events);

  SpaceMap map_;
  Settings settings_;
  BoardCalibrator calibrator_;
  MarkerDetector detector_;
  MotionDetector motion_;
  TokenLocator locator_;
  std::optional<Calibration> calibration_;
  std::vector<TokenAppearance> tokens_;
  std::vector<int> positions_;
  std::vector<std::string> reported_;  // per token: the last question or absence reported, to say it once
  std::deque<Pending> pending_;
  std::vector<bool> decided_;                 // per token: decided since the scene last moved
  std::vector<std::vector<int>> wavering_;    // per token: every space it was seen on since then
  std::vector<TokenObservation> decided_as_;  // per token: the look it was decided by since then
  int learned_with_markers_ = 0;              // markers behind the calibration the reference was taken with
  // The calibration the reference was taken through, while it had fewer than four markers and the board
  // has not moved since: a fit from more markers later re-aligns the reference. While it is set, it is the
  // calibration in use (invariant_problem() checks it).
  std::optional<Calibration> reference_calibration_;
  std::deque<size_t> learning_counts_;
  bool accept_fewer_ = false;
  size_t incomplete_reported_ = 0;  // the count last reported as learn_incomplete, 0 for none
  bool none_reported_ = false;      // learn_incomplete said for a start space with no token on it
  bool awaiting_new_token_ = false;
  std::string next_name_;
  std::deque<NewToken> new_sightings_;  // of the new token, over the still frames so far
  bool moved_while_waiting_ = false;    // something was put down (or a hand passed) since the wait began
  int nothing_new_frames_ = 0;          // still frames since then showing nothing new
  bool said_unseen_ = false;            // learn_incomplete said for this wait
  std::vector<int> unseen_moves_;       // per token: others' moves since it was last seen, -1 while seen
  // Per token: the spaces of its last question, and those the family said it was not on (settle). A sure
  // look at it on a refuted space is asked about again, never reported as a move: what the tracker took
  // for it there (print or a shadow like a grey token) was not it.
  std::vector<std::vector<int>> asked_, refuted_;
  int still_count_ = 0;
  bool dirty_ = true;  // something moved since the last decision
  int64_t last_not_found_ = -1'000'000;
  // The top view averaged over the still frames since the scene last moved, through one board fit.
  StillAverage still_view_;
  std::unique_ptr<cv::Mat> top_;  // the top view, made into the same buffer every frame
  std::unique_ptr<cv::Mat> ring_region_;
  std::vector<std::array<int, 4>> ring_parts_;
  // Just after tokens are learned: their looks on `top` are remembered as decided (remember_decided).
  void remember_learned(const cv::Mat& top);
};

}  // namespace bb::vision
