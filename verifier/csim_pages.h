/* csim_pages.h - the DRAM pages (rows) the cache model's transfers open.
 *
 * Contract: fed every DRAM transfer of a sample (its page, who made it: a
 * group's demand read, or an eviction), it says whether the transfer
 * opens its page and keeps what the model needs to price the pages the
 * rest of the device closes in between.  Pure data structure, no I/O, no
 * knowledge of the device.
 *
 * Model (docs/model.md section 4.1a, "Pages the device closes"):
 *   - a transfer opens its page when no transfer of the last
 *     CSIM_OPEN_PAGES openings touched it (the sample's own locality);
 *   - the sample runs its groups one after another, the device runs
 *     `concurrent` of them at once: between two of a group's touches of
 *     one of its pages the device touches the pages of all the others.
 *     So a demand read of a page whose last touch was its own group's is
 *     recorded (per tag) by d, the other open pages touched since (its
 *     stack distance); the caller decides, once the window is done, which
 *     d the device keeps open (csim_pages_reopened).  A page whose last
 *     touch was another requester's (a neighbouring group reading it at
 *     the same time on the device, an eviction) stays open as before;
 *   - the window's page sharing: the (page, group) pairs of the demand
 *     reads over the distinct pages they touch (1: every group its own
 *     pages; k: k groups touch each page), so that the caller can count
 *     the device's distinct pages as concurrent groups x pages a group /
 *     sharing.
 */
#ifndef CW_CSIM_PAGES_H
#define CW_CSIM_PAGES_H

#include <stdint.h>

#define CSIM_OPEN_PAGES 64

typedef struct csim_pages csim_pages;

/* ntags attribution slots (tags at or above go to one overflow slot).
 * NULL when out of memory. */
csim_pages *csim_pages_new(uint32_t ntags);
void csim_pages_free(csim_pages *p);

/* A transfer to page (any id; 0 is fine) by requester `by` (a group's
 * index, < 31) for tag, or by CSIM_PAGES_EVICTION.  Returns 1 when it
 * opens the page. */
#define CSIM_PAGES_EVICTION 31u
int csim_pages_touch(csim_pages *p, uint64_t page, uint32_t by, uint32_t tag);

/* Forget the records (reuse distances, sharing) but keep the open pages,
 * now counted as touched by others: what warming neighbours left. */
void csim_pages_forget(csim_pages *p);

/* The demand reads of tag recorded with a stack distance above window. */
double csim_pages_reopened(const csim_pages *p, uint32_t tag, uint32_t window);

/* (page, group) pairs of demand reads per distinct page; 1 when none. */
double csim_pages_sharing(const csim_pages *p);

#endif
