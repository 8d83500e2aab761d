"""The minimal-movement planner: keep every replica that can stay, move the fewest to balance.

Beyond the original tool (which re-places every partition from a random start), this planner:
1. keeps each partition's replication factor and every replica on a broker of the target set, unless
   the partition has more replicas in one rack than an even spread allows (rack-aware mode);
2. gives each broker a replica target: racks get shares proportional to their broker count (capped
   at what one-replica-per-broker-per-partition allows), brokers within a rack split the rack's
   share evenly; the +1 remainders go to the brokers that already hold the most, so nothing moves
   that need not;
3. places the replicas that must move (brokers removed, rack spread) on the brokers furthest below
   target, then moves replicas from brokers above target to brokers below it, followers first;
4. with the partitions' sizes, swaps replicas between the fullest and the emptiest broker until
   their bytes are even too (kcli.ops.reassign.bytes_balance: counts never change);
5. balances leaders (the first replica) by reordering replicas only, which moves no data: current
   leaders stay where they can, then leadership shifts along chains of shared partitions.
The number of replicas moved is the sum of the excesses over target plus the forced moves, which is
the least any plan reaching those counts can move.
"""

from __future__ import annotations

import heapq
from collections import Counter, deque
from collections.abc import Callable, Iterator, Mapping, Sequence

from kcli.ops.reassign.model import Assignment, BrokerInfo, TopicPartition, sort_key
from kcli.ops.reassign.original import check_replication_factor

_CHAIN_WORK = 300_000  # bounded work for replica chains (checks of one candidate broker)
_BFS_LIMIT = 2000  # bounded work for the last few leader moves; greedy moves do almost all of it


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


class _Placement:
    """Mutable planning state: slots per partition, replica loads and targets per broker."""

    def __init__(
        self,
        current: Assignment,
        brokers: Sequence[BrokerInfo],
        rack_aware: bool,
        replication_factor: int | None = None,
    ) -> None:
        self.replication_factor = replication_factor
        self.ids = sorted(b.broker_id for b in brokers)
        self.rack_of: dict[int, str | None] = {b.broker_id: (b.rack if rack_aware else None) for b in brokers}
        self.racks = sorted({r for r in self.rack_of.values() if r is not None}) if rack_aware else []
        self.rack_aware = rack_aware and len(self.racks) > 0
        self.parts = sorted(current, key=sort_key)
        self.current = current
        self.slots: dict[TopicPartition, list[int | None]] = {}
        self.load: Counter[int] = Counter()
        self.target: dict[int, int] = {}

    # --- rack spread -----------------------------------------------------------------------------
    def rack_bounds(self, rf: int) -> tuple[int, int]:
        """(floor, ceil) replicas of one partition per rack for an even spread."""
        k = len(self.racks)
        return rf // k, _ceil_div(rf, k)

    def rack_counts(self, members: Sequence[int | None]) -> Counter[str | None]:
        rack_of = self.rack_of
        return Counter(rack_of[b] for b in members if b is not None)

    # --- 1. keep ---------------------------------------------------------------------------------
    def keep(self) -> None:
        valid = set(self.ids)
        rack_of = self.rack_of
        slots = self.slots
        for tp in self.parts:
            cur = self.current[tp]
            if valid.issuperset(cur) and len(set(cur)) == len(cur):
                slot: list[int | None] = list(cur)
                if not self.rack_aware or len({rack_of[b] for b in cur}) == len(cur):
                    slots[tp] = self._resized(slot)  # the common case: nothing to drop
                    continue
            else:
                seen: set[int] = set()
                slot = []
                for b in cur:
                    if b in valid and b not in seen:
                        slot.append(b)
                        seen.add(b)
                    else:
                        slot.append(None)
            slot = self._resized(slot)
            if self.rack_aware:
                _, cap = self.rack_bounds(len(slot))
                counts = self.rack_counts(slot)
                for i in range(len(slot) - 1, -1, -1):  # drop from the back: the leader stays
                    kept = slot[i]
                    if kept is not None and counts[rack_of[kept]] > cap:
                        counts[rack_of[kept]] -= 1
                        slot[i] = None
            slots[tp] = slot
        self.load.update(b for slot in slots.values() for b in slot if b is not None)

    def _resized(self, slot: list[int | None]) -> list[int | None]:
        """A new replication factor: new replicas are empty slots to fill; fewer drop from the back
        (followers first, the leader stays), preferring slots already emptied."""
        rf = self.replication_factor
        if rf is None or rf == len(slot):
            return slot
        if rf > len(slot):
            return [*slot, *([None] * (rf - len(slot)))]
        kept = list(slot)
        while len(kept) > rf:
            empty = [i for i, b in enumerate(kept) if b is None]
            del kept[empty[-1] if empty else len(kept) - 1]
        return kept

    # --- 2. targets ------------------------------------------------------------------------------
    def compute_targets(self) -> None:
        total = sum(len(s) for s in self.slots.values())
        if not self.rack_aware:
            self._split(self.ids, total)
            return
        members: dict[str, list[int]] = {r: [] for r in self.racks}
        for b in self.ids:
            rack = self.rack_of[b]
            assert rack is not None
            members[rack].append(b)
        rfs = Counter(len(s) for s in self.slots.values())
        caps = {
            r: sum(n * min(self.rack_bounds(rf)[1], len(members[r])) for rf, n in rfs.items())
            for r in self.racks
        }
        shares: dict[str, float] = {}
        active = list(self.racks)
        remaining = float(total)
        while active:
            size = sum(len(members[r]) for r in active)
            tentative = {r: remaining * len(members[r]) / size for r in active}
            capped = [r for r in active if tentative[r] > caps[r]]
            if not capped:
                shares.update(tentative)
                break
            for r in capped:
                shares[r] = caps[r]
                remaining -= caps[r]
                active.remove(r)
        rack_total = {r: int(shares[r]) for r in self.racks}
        leftover = total - sum(rack_total.values())
        rack_load = {r: sum(self.load[b] for b in members[r]) for r in self.racks}
        order = sorted(self.racks, key=lambda r: (-(shares[r] - rack_total[r]), -rack_load[r], r))
        for r in order[:leftover]:
            rack_total[r] += 1
        for r in self.racks:
            self._split(members[r], rack_total[r])

    def _split(self, brokers: list[int], total: int) -> None:
        if not brokers:
            return
        base, extra = divmod(total, len(brokers))
        ranked = sorted(brokers, key=lambda b: (-self.load[b], b))
        for i, b in enumerate(ranked):
            self.target[b] = base + (1 if i < extra else 0)

    # --- 3a. forced moves ------------------------------------------------------------------------
    def fill(self) -> None:
        groups: dict[str | None, list[tuple[int, int]]] = {}
        for b in self.ids:
            groups.setdefault(self.rack_of[b], []).append((self.load[b] - self.target[b], b))
        for heap in groups.values():
            heapq.heapify(heap)
        for tp in self.parts:
            slot = self.slots[tp]
            if None not in slot:
                continue
            for i in range(len(slot)):
                if slot[i] is None:
                    slot[i] = self._pick(slot, groups)

    def _pick(self, slot: list[int | None], groups: dict[str | None, list[tuple[int, int]]]) -> int:
        """The most under-target broker not in the partition, on an allowed rack."""
        members = {b for b in slot if b is not None}
        candidates: list[tuple[int, int, str | None, list[tuple[int, int]]]] = []
        racks = list(groups)
        if self.rack_aware:
            _, cap = self.rack_bounds(len(slot))
            counts = self.rack_counts(slot)
            usable = [r for r in racks if counts[r] < cap]
            low = min((counts[r] for r in usable), default=0)
            preferred = [r for r in usable if counts[r] == low]
            order = [preferred, usable, racks]
        else:
            order = [racks]
        for allowed in order:
            for rack in allowed:
                best = self._peek(groups[rack], members)
                if best is not None:
                    candidates.append((best[0], best[1], rack, groups[rack]))
            if candidates:
                break
        if not candidates:  # cannot happen once RF <= broker count was checked
            raise AssertionError("no broker left for a replica")
        _, broker, _, heap = min(candidates, key=lambda c: (c[0], c[1]))
        self.load[broker] += 1
        heapq.heappush(heap, (self.load[broker] - self.target[broker], broker))
        return broker

    def _peek(self, heap: list[tuple[int, int]], exclude: set[int]) -> tuple[int, int] | None:
        """The best live entry not in `exclude`, removing stale entries (lazy deletion)."""
        skipped: list[tuple[int, int]] = []
        found: tuple[int, int] | None = None
        while heap:
            key, b = heap[0]
            if key != self.load[b] - self.target[b]:
                heapq.heappop(heap)
                continue
            if b in exclude:
                skipped.append(heapq.heappop(heap))
                continue
            found = heapq.heappop(heap)  # taken; re-pushed with its new key by the caller if chosen
            skipped.append(found)
            break
        for entry in skipped:
            heapq.heappush(heap, entry)
        return found

    # --- 3b. balancing moves ---------------------------------------------------------------------
    def shed(self) -> None:
        """Move replicas from brokers above target to brokers below it.

        Passes: within a rack (rack totals unchanged), then from racks above their total to racks
        below it, then anywhere the partition's rack spread allows.
        """
        held: dict[int, list[TopicPartition]] = {b: [] for b in self.ids}
        followers: dict[int, list[TopicPartition]] = {b: [] for b in self.ids}
        for tp in self.parts:
            for i, b in enumerate(self.slots[tp]):
                assert b is not None
                (followers if i > 0 else held)[b].append(tp)
        order = {b: followers[b] + held[b] for b in self.ids}  # followers first: leaders stay
        passes = ("rack", "rack-total", "any") if self.rack_aware else ("any",)
        for mode in passes:
            under = [b for b in self.ids if self.load[b] < self.target[b]]
            if not under:
                return
            over = sorted(
                (b for b in self.ids if self.load[b] > self.target[b]),
                key=lambda b: (self.target[b] - self.load[b], b),
            )
            for x in over:
                rack_x = self.rack_of[x]
                if mode == "rack" and all(self.rack_of[y] != rack_x for y in under):
                    continue  # nobody below target in x's rack: nothing to do in this pass
                if mode == "rack-total" and self._rack_total(rack_x)[0] <= self._rack_total(rack_x)[1]:
                    continue
                remaining: list[TopicPartition] = []
                candidates = order[x]
                for index, tp in enumerate(candidates):
                    if self.load[x] <= self.target[x] or not under:
                        remaining.extend(candidates[index:])
                        break
                    slot = self.slots[tp]
                    if x not in slot:
                        continue
                    y = self._receiver(tp, x, under, mode)
                    if y is None:
                        remaining.append(tp)
                        continue
                    slot[slot.index(x)] = y
                    self.load[x] -= 1
                    self.load[y] += 1
                    if self.load[y] >= self.target[y]:
                        under.remove(y)
                order[x] = remaining

    def chains(self) -> None:
        """Last resort for brokers still above target: a chain of moves x -> a -> ... -> under.

        Each link moves one replica of a partition to a broker not in it, keeping the partition's
        rack spread; the chain ends at a broker below target. It costs one move per link, so it
        runs only where no single move helped, within a bounded amount of work.
        """
        if all(self.load[b] <= self.target[b] for b in self.ids):
            return
        members: dict[int, set[TopicPartition]] = {b: set() for b in self.ids}
        for tp in self.parts:
            for b in self.slots[tp]:
                assert b is not None
                members[b].add(tp)
        work = [_CHAIN_WORK]
        for x in self.ids:
            while self.load[x] > self.target[x] and work[0] > 0:
                if not self._replica_chain(x, members, work):
                    break

    def _fits(self, slot: list[int | None], out: int, into: int) -> bool:
        if into in slot:
            return False
        if not self.rack_aware:
            return True
        rack_out, rack_in = self.rack_of[out], self.rack_of[into]
        if rack_out == rack_in:
            return True
        low, cap = self.rack_bounds(len(slot))
        counts = self.rack_counts(slot)
        return counts[rack_in] + 1 <= cap and counts[rack_out] - 1 >= low

    def _replica_chain(self, source: int, members: dict[int, set[TopicPartition]], work: list[int]) -> bool:
        parent: dict[int, tuple[int, TopicPartition] | None] = {source: None}
        queue = deque([source])
        while queue:
            u = queue.popleft()
            for tp in sorted(members[u]):
                slot = self.slots[tp]
                for v in self.ids:
                    work[0] -= 1
                    if work[0] <= 0:
                        return False
                    if v in parent or not self._fits(slot, u, v):
                        continue
                    parent[v] = (u, tp)
                    if self.load[v] >= self.target[v]:
                        queue.append(v)
                        continue
                    path: list[tuple[int, int, TopicPartition]] = []
                    w = v
                    step = parent[w]
                    while step is not None:
                        path.append((step[0], w, step[1]))
                        w = step[0]
                        step = parent[w]
                    if len({t for _, _, t in path}) != len(path):
                        continue  # one partition twice in a chain: its rack spread is not checked jointly
                    for out, into, moved in path:
                        moved_slot = self.slots[moved]
                        moved_slot[moved_slot.index(out)] = into
                        members[out].discard(moved)
                        members[into].add(moved)
                    self.load[v] += 1
                    self.load[source] -= 1
                    return True
        return False

    def _rack_total(self, rack: str | None) -> tuple[int, int]:
        members = [b for b in self.ids if self.rack_of[b] == rack]
        return sum(self.load[b] for b in members), sum(self.target[b] for b in members)

    def _receiver(self, tp: TopicPartition, x: int, under: list[int], mode: str) -> int | None:
        slot = self.slots[tp]
        if not self.rack_aware:
            for y in under:
                if y not in slot:
                    return y
            return None
        rack_x = self.rack_of[x]
        if mode == "rack":
            return next((y for y in under if self.rack_of[y] == rack_x and y not in slot), None)
        low, cap = self.rack_bounds(len(slot))
        counts = self.rack_counts(slot)
        if mode == "rack-total":
            load_x, target_x = self._rack_total(rack_x)
            if load_x <= target_x:
                return None
        for y in under:
            if y in slot:
                continue
            rack_y = self.rack_of[y]
            if rack_y == rack_x:
                return y
            if mode == "rack":
                continue
            if mode == "rack-total":
                load_y, target_y = self._rack_total(rack_y)
                if load_y >= target_y:
                    continue
            if counts[rack_y] + 1 <= cap and counts[rack_x] - 1 >= low:
                return y
        return None

    # --- 4. leaders ------------------------------------------------------------------------------
    def leaders(self) -> dict[TopicPartition, tuple[int, ...]]:
        # After fill() every slot holds a broker.
        replicas: dict[TopicPartition, list[int]] = self.slots  # type: ignore[assignment]
        leader: dict[TopicPartition, int] = {}
        unled: list[TopicPartition] = []
        current = self.current
        for tp in self.parts:
            cur = current[tp]
            if cur and cur[0] in replicas[tp]:
                leader[tp] = cur[0]
            else:
                unled.append(tp)
        count: Counter[int] = Counter(dict.fromkeys(self.ids, 0))
        count.update(leader.values())
        # Leader counts must end within [low, high]: a spread of at most one.
        low, extra = divmod(len(self.parts), len(self.ids))
        high = low + (1 if extra else 0)
        for tp in unled:
            choice = min(replicas[tp], key=lambda b: (count[b], b))
            leader[tp] = choice
            count[choice] += 1
        led: dict[int, list[TopicPartition]] = {b: [] for b in self.ids}
        for tp, b in leader.items():
            led[b].append(tp)
        # Greedy: hand leadership to a fellow replica below the band's top.
        for x in self.ids:
            if count[x] <= high:
                continue
            keep: list[TopicPartition] = []
            for tp in led[x]:
                if count[x] > high:
                    y = next((b for b in replicas[tp] if count[b] < high), None)
                    if y is not None:
                        leader[tp] = y
                        count[x] -= 1
                        count[y] += 1
                        led[y].append(tp)
                        continue
                keep.append(tp)
            led[x] = keep
        # Chains for the rest: x leads p where y is a replica, y leads q where z has room ...
        budget = _BFS_LIMIT
        for x in self.ids:
            while count[x] > high and budget > 0:
                budget -= 1
                if not _shift_chain(x, lambda b: count[b] < high, led, replicas, leader, count):
                    break
        if any(count[b] < low for b in self.ids):
            member_of: dict[int, list[TopicPartition]] = {b: [] for b in self.ids}
            for tp in self.parts:
                for b in replicas[tp]:
                    member_of[b].append(tp)
            for x in self.ids:
                while count[x] < low and budget > 0:
                    budget -= 1
                    if not _pull_chain(x, lambda b: count[b] > low, member_of, leader, led, count):
                        break
        result: dict[TopicPartition, tuple[int, ...]] = {}
        for tp, members in replicas.items():
            lead = leader[tp]
            if members[0] != lead:
                members.remove(lead)
                members.insert(0, lead)
            result[tp] = tuple(members)
        return result


def _move_lead(
    tp: TopicPartition,
    old: int,
    new: int,
    leader: dict[TopicPartition, int],
    led: dict[int, list[TopicPartition]],
    count: Counter[int],
) -> None:
    leader[tp] = new
    led[new].append(tp)
    led[old].remove(tp)
    count[new] += 1
    count[old] -= 1


def _shift_chain(
    source: int,
    has_room: Callable[[int], bool],
    led: dict[int, list[TopicPartition]],
    replicas: dict[TopicPartition, list[int]],
    leader: dict[TopicPartition, int],
    count: Counter[int],
) -> bool:
    """Move one leadership away from `source` along a chain ending at a broker with room."""
    hops = _chain(source, lambda u: ((tp, v) for tp in led[u] for v in replicas[tp]), has_room)
    for u, tp, w in hops or ():
        _move_lead(tp, u, w, leader, led, count)
    return hops is not None


def _pull_chain(
    sink: int,
    can_give: Callable[[int], bool],
    member_of: dict[int, list[TopicPartition]],
    leader: dict[TopicPartition, int],
    led: dict[int, list[TopicPartition]],
    count: Counter[int],
) -> bool:
    """Give `sink` one more leadership along a chain starting at a broker that can spare one."""
    hops = _chain(sink, lambda t: ((tp, leader[tp]) for tp in member_of[t]), can_give)
    for t, tp, w in hops or ():
        _move_lead(tp, w, t, leader, led, count)
    return hops is not None


def _chain(
    start: int, edges: Callable[[int], Iterator[tuple[TopicPartition, int]]], goal: Callable[[int], bool]
) -> list[tuple[int, TopicPartition, int]] | None:
    """Breadth-first from `start` over `edges` (partition, next broker) to the nearest broker meeting
    `goal`: the hops (from broker, partition, to broker) of that path, last first; None if none does."""
    parent: dict[int, tuple[int, TopicPartition] | None] = {start: None}
    queue = deque([start])
    while queue:
        u = queue.popleft()
        for tp, v in edges(u):
            if v in parent:
                continue
            parent[v] = (u, tp)
            if goal(v):
                return list(_path_back(parent, v))
            queue.append(v)
    return None


def _path_back(
    parent: dict[int, tuple[int, TopicPartition] | None], end: int
) -> Iterator[tuple[int, TopicPartition, int]]:
    """The hops (from broker, partition, to broker) of the search path that reached `end`, last first."""
    w = end
    step = parent[w]
    while step is not None:
        u, tp = step
        yield u, tp, w
        w = u
        step = parent[w]


def plan_minimal(
    current: Assignment,
    brokers: Sequence[BrokerInfo],
    *,
    rack_aware: bool,
    replication_factor: int | None = None,
    sizes: Mapping[TopicPartition, int] | None = None,
) -> dict[TopicPartition, tuple[int, ...]]:
    """A balanced assignment of `current`'s partitions over `brokers` that moves the fewest replicas.

    With `replication_factor`, every partition gets that many replicas: the current ones stay (the
    leader first), new ones go where the balance needs them, surplus followers go. With `sizes`
    (bytes per partition), the brokers' bytes are balanced as well as their counts.
    """
    if not brokers:
        from kcli.errors import KcliError

        raise KcliError("No brokers to assign replicas to (the --broker-list names no live broker)")
    if replication_factor is not None:
        check_replication_factor(replication_factor, len(brokers))
    elif current:
        check_replication_factor(max(len(r) for r in current.values()), len(brokers))
    state = _Placement(current, brokers, rack_aware, replication_factor)
    state.keep()
    state.compute_targets()
    state.fill()
    state.shed()
    state.chains()
    if sizes:
        from kcli.ops.reassign.bytes_balance import balance_bytes

        rack_of = state.rack_of
        groups = [[b for b in state.ids if rack_of[b] == r] for r in state.racks] if state.rack_aware else [state.ids]
        balance_bytes(state.slots, current, groups, sizes)  # type: ignore[arg-type]  # every slot is filled
    return state.leaders()
