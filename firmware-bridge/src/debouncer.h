// Presence of tags on one reader's antenna, debounced.
//
// RC522 presence flickers: a tag lying still in the field is missed by one poll in a few dozen,
// more near the edge of the antenna or with two tags in the field (anticollision then returns one
// and not the other). So a tag *arrives* the first time it is seen, and *leaves* only after
// `missLimit` consecutive complete polls without it. A sighting in between resets its count, so
// flicker never produces a leave/arrive pair. The delay this adds to a real lift is
// missLimit x poll interval (3 x 50 ms by default), far below what a player notices.
//
// Only complete polls count misses. A partial poll (the reader's time budget ran out before the
// inventory finished) proves what it saw but not what it did not see; a failed poll proves nothing.
#pragma once

#include <cstdint>

#include "protocol.h"
#include "uid.h"

namespace tenace {

class Debouncer {
   public:
    struct Change {
        bool arrive = false;  // false: leave
        Uid uid;
    };

    static constexpr uint8_t kMaxChanges = 2 * kMaxTagsPerReader;

    struct Result {
        uint8_t count = 0;
        // Leaves first, then arrivals: a leave happened (missLimit polls) before anything seen now,
        // and it frees a slot for the newcomer.
        Change changes[kMaxChanges];
        // A new tag was seen but the presence set was full; it was not reported and will be
        // reported by a later poll once there is room.
        bool overfull = false;
    };

    // Feed one poll's sightings. Implausible UIDs (see uidPlausible) and repeats within the poll
    // are ignored.
    void observe(const Uid* seen, uint8_t n, bool complete, uint8_t missLimit, Result& out);

    void clear() { count_ = 0; }

    // Tags currently considered present, in order of arrival.
    uint8_t size() const { return count_; }
    const Uid& tag(uint8_t i) const { return entries_[i].uid; }
    bool contains(const Uid& uid) const { return find(uid) >= 0; }

   private:
    struct Entry {
        Uid uid;
        uint8_t misses = 0;
        bool seen = false;  // scratch, within observe()
    };

    int find(const Uid& uid) const;
    void removeAt(uint8_t i);

    Entry entries_[kMaxTagsPerReader];
    uint8_t count_ = 0;
};

}  // namespace tenace
