#include "debouncer.h"

namespace tenace {

int Debouncer::find(const Uid& uid) const {
    for (uint8_t i = 0; i < count_; ++i) {
        if (entries_[i].uid == uid) return i;
    }
    return -1;
}

void Debouncer::removeAt(uint8_t i) {
    // Shift rather than swap, so the set stays in arrival order (the snapshot lists it that way).
    for (uint8_t j = i; j + 1 < count_; ++j) entries_[j] = entries_[j + 1];
    --count_;
}

void Debouncer::observe(const Uid* seen, uint8_t n, bool complete, uint8_t missLimit, Result& out) {
    out.count = 0;
    out.overfull = false;
    if (missLimit == 0) missLimit = 1;

    for (uint8_t i = 0; i < count_; ++i) entries_[i].seen = false;

    // Sightings: refresh known tags, collect newcomers (deduplicated within this poll).
    Uid fresh[kMaxSeenPerPoll];
    uint8_t freshCount = 0;
    for (uint8_t s = 0; s < n && s < kMaxSeenPerPoll; ++s) {
        const Uid& uid = seen[s];
        if (!uidPlausible(uid)) continue;
        const int at = find(uid);
        if (at >= 0) {
            entries_[at].seen = true;
            entries_[at].misses = 0;
            continue;
        }
        bool dup = false;
        for (uint8_t k = 0; k < freshCount; ++k) dup = dup || fresh[k] == uid;
        if (!dup) fresh[freshCount++] = uid;
    }

    // Misses, only when the poll looked at everything in the field.
    if (complete) {
        uint8_t i = 0;
        while (i < count_) {
            Entry& e = entries_[i];
            if (!e.seen && ++e.misses >= missLimit) {
                Change& c = out.changes[out.count++];
                c.arrive = false;
                c.uid = e.uid;
                removeAt(i);
                continue;
            }
            ++i;
        }
    }

    for (uint8_t k = 0; k < freshCount; ++k) {
        if (count_ == kMaxTagsPerReader) {
            out.overfull = true;
            break;
        }
        Entry& e = entries_[count_++];
        e.uid = fresh[k];
        e.misses = 0;
        e.seen = true;
        Change& c = out.changes[out.count++];
        c.arrive = true;
        c.uid = fresh[k];
    }
}

}  // namespace tenace
