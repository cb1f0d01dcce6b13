package memcpysync

import (
	"go/ast"
	"go/types"
	"maps"
	"slices"

	"github.com/hiplint/hiplint/internal/flow"
	"github.com/hiplint/hiplint/internal/knowledge/status"
)

// pending is a device-to-device copy that may still be in flight.
type pending struct {
	site   int
	dsts   []flow.Loc // the destination and its aliases
	dst    ast.Expr   // the destination as written, when there is one
	queue  flow.Queue
	peer   flow.Sym // peer copies: the destination device
	byKind bool     // only if the caller's kind at kind says device-to-device
	kind   flow.Ref
	kmap   KindMap         // how the caller's value at kind becomes the runtime's
	waited []flow.QueueKey // queues made to wait for the copy through events
	done   bool            // the host has waited for it
}

func (p *pending) has(l flow.Loc, deep bool) bool {
	return slices.ContainsFunc(p.dsts, func(d flow.Loc) bool { return d == l || deep && d.Under(l) })
}

func (p *pending) clone() *pending {
	c := *p
	c.dsts = slices.Clone(p.dsts)
	c.waited = slices.Clone(p.waited)
	return &c
}

// edit returns copy site's pending copy for changing: a copy of it, put in
// its place. States share their pending copies (cloneState copies the map,
// not what it points to), so a pending copy is never changed where it is:
// most states are cloned, at a block, and then change none or few of them.
func (s *state) edit(site int) *pending {
	c := s.copies.Map()[site].clone()
	s.copies.Set(site, c)
	return c
}

type state struct {
	device  flow.Sym
	copies  flow.COW[int, *pending]
	streams flow.COW[flow.Loc, flow.Queue]        // the streams created here, by handle
	events  flow.COW[flow.Loc, []int]             // event → copy sites it was recorded after
	kinds   flow.COW[types.Object, flow.SmallSet] // the copy kinds a variable may hold on this path
	// status maps a variable holding a call's status (err := check(C.x(...)))
	// to the copies that call issued: where it reports failure they never
	// started.
	status status.Statuses
	// For summaries: the entry device, and these streams, were synchronized
	// on every path here; nullSynced: the entry device's null stream was (a
	// blocking device-to-host copy on it returned).
	synced        bool
	nullSynced    bool
	syncedStreams flow.COW[flow.Loc, bool]
	// evOps: the event operations on the caller's events made on every
	// path here, for EventOps.
	evOps []EventOp
}

// maxPendingCopies bounds the copies a state tracks at once. Each state
// holds every copy that may still be in flight, and the solver clones states
// at every block, so a function of thousands of copies in branches (generated
// code) cost time quadratic in its size: 20,000 runtime calls took minutes.
// Beyond the bound, further copies are not tracked: hazards they cause in
// such a function go unreported, nothing is reported wrongly.
const maxPendingCopies = 64

// track records p as copy site's pending copy, unless the state already
// tracks maxPendingCopies other copies.
func (s *state) track(site int, p *pending) {
	if _, ok := s.copies.Get(site); !ok && s.copies.Len() >= maxPendingCopies {
		return
	}
	s.copies.Set(site, p)
}

// complete records that the host waited for copy site's copy. In candidate
// mode the copy stays, marked done, for its reads to be judged; otherwise
// it is dropped: a copy the host waited for is no hazard, as one never
// issued is not, and the states stay as small as the copies in flight
// (a generated function that synchronizes every few copies kept every
// copy it had issued, up to maxPendingCopies, in every state).
func (fa *funcAnalysis) complete(s *state, site int) {
	if fa.candidates {
		s.edit(site).done = true
		return
	}
	s.copies.Delete(site)
}

// stateSize is a state's size for the budget (flow.Problem.Size): the
// entries of its maps.
func stateSize(s *state) int {
	return s.copies.Len() + s.streams.Len() + s.events.Len() + s.kinds.Len() + s.syncedStreams.Len() + len(s.evOps)
}

// cloneState copies s. The solver clones a state at every block, so maps
// that are empty stay nil (most are, in most functions) and are made on
// their first write (flow.Put): the clones were a third of this analyzer's
// allocation (docs/performance.md). The pending copies are shared with s
// (see edit).
func cloneState(s *state) *state {
	return &state{device: s.device, synced: s.synced, nullSynced: s.nullSynced,
		streams: s.streams.Clone(), kinds: s.kinds.Clone(), syncedStreams: s.syncedStreams.Clone(),
		status: s.status, evOps: slices.Clone(s.evOps), // status is immutable: shared
		events: s.events.Clone(), copies: s.copies.Clone()}
}

// joinState merges the states of two paths: a copy pending on either is
// pending; a synchronization counts only if both paths made it.
func joinState(into, from *state) *state {
	if into.device != from.device {
		into.device = flow.Unknown
	}
	joinCopies(&into.copies, from.copies)
	into.streams.JoinUnion(from.streams, flow.JoinQueues, nil)
	into.events.JoinIntersect(from.events, func(v, w []int) []int { return flow.Intersect(slices.Clone(v), w) }) // recorded after them on both
	into.kinds.JoinIntersect(from.kinds, func(v, w flow.SmallSet) flow.SmallSet { return v | w })                // either path's kind
	into.syncedStreams.JoinIntersect(from.syncedStreams, func(v, w bool) bool { return true })
	into.status = into.status.Join(from.status)
	into.evOps = flow.Intersect(into.evOps, from.evOps)
	into.synced = into.synced && from.synced
	into.nullSynced = into.nullSynced && from.nullSynced
	return into
}

// joinCopies joins from's pending copies into into's: a copy pending on
// either path is pending. The join keeps the bound of track: a site from
// alone is added only while into tracks fewer than maxPendingCopies, the
// lowest sites first. Without it a join was the union of every path's
// copies, and in a goto-heavy function each state held every copy of the
// function, so that time and memory grew with the square of its size
// (issue 29: 2,000 labels ran out of memory). into's own copies are always
// kept, so the join is still monotone and the solver converges; which
// copies a full state leaves out depends on the order the solver visits
// blocks in, which is fixed.
func joinCopies(into *flow.COW[int, *pending], from flow.COW[int, *pending]) {
	if from.Len() == 0 {
		return
	}
	var extra []int // from's sites that into lacks
	changed := false
	for k, p := range from.Map() {
		q, ok := into.Get(k)
		switch {
		case !ok:
			extra = append(extra, k)
		case !samePending(q, p):
			if !changed {
				into.Edit()
				changed = true
			}
			into.Map()[k] = mergePending(q, p)
		}
	}
	if len(extra) == 0 || into.Len() >= maxPendingCopies {
		return
	}
	slices.Sort(extra)
	m := into.Edit()
	for _, k := range extra {
		if len(m) >= maxPendingCopies {
			break
		}
		m[k] = from.Map()[k] // shared: see edit
	}
}

// mergePending is the pending copy of one site on two paths, q and p,
// which differ: a copy of q, with the destinations of both, the queues
// waiting on both, done if done on both.
func mergePending(q, p *pending) *pending {
	q = q.clone()
	q.dsts = flow.AppendNew(q.dsts, p.dsts...)
	q.waited = flow.Intersect(q.waited, p.waited)
	q.done = q.done && p.done
	if q.queue.Key() != p.queue.Key() {
		q.queue.Device = flow.Unknown
	}
	return q
}

// equalState reports whether two states are the same. The solver compares
// states at every edge it follows, so this must not allocate: comparing
// sorted strings built with fmt made a function of 200 nested ifs take
// minutes.
func equalState(a, b *state) bool {
	if a.device != b.device || a.synced != b.synced || a.nullSynced != b.nullSynced || a.copies.Len() != b.copies.Len() ||
		!slices.Equal(a.evOps, b.evOps) || !a.status.Equal(b.status) ||
		!maps.Equal(a.streams.Map(), b.streams.Map()) ||
		!maps.EqualFunc(a.events.Map(), b.events.Map(), slices.Equal) ||
		!maps.Equal(a.kinds.Map(), b.kinds.Map()) ||
		!maps.EqualFunc(a.syncedStreams.Map(), b.syncedStreams.Map(), func(v, w bool) bool { return true }) {
		return false
	}
	for k, p := range a.copies.Map() {
		if q, ok := b.copies.Get(k); !ok || !samePending(p, q) {
			return false
		}
	}
	return true
}

// samePending reports whether two states' pending copies of one site are
// the same (equalState), so that joining one into the other changes
// nothing.
func samePending(p, q *pending) bool {
	return p == q || p.done == q.done && p.queue.Same(q.queue) &&
		flow.SameElems(p.dsts, q.dsts) && flow.SameElems(p.waited, q.waited)
}
