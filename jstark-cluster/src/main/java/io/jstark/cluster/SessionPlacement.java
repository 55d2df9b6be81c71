package io.jstark.cluster;

import io.grpc.Context;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The worker sessions of one proof: which tables each worker holds, which sessions are open there, which workers are
 * lost, and per table its session now and the worker that made the values the transcript absorbed. Not thread-safe:
 * its {@link RemoteSession} guards it with its own lock.
 */
final class SessionPlacement {
    /**
     * A worker session: a worker, the tables (proof indices, ascending) placed on it, the session's id there, and the
     * context its calls run in (cancelled when the worker is found lost, so that calls waiting on it end at once).
     */
    record Placed(int worker, int[] tables, String sessionId, Context.CancellableContext calls) {
        Placed(int worker, int[] tables, String sessionId) {
            this(worker, tables, sessionId, Context.ROOT.withCancellation());
        }
    }

    private final List<String> tableNames;
    private final long[] ramBytes;
    private final long[] floorBytes;
    /** Per table what it costs its worker's budget now. */
    private final long[] chargedBytes;

    private final long[] budgets;
    private final boolean[] spills;
    private final List<Placed> placed = new ArrayList<>();
    private final Set<Placed> opened = new HashSet<>();
    private final Set<Integer> lost = new HashSet<>();
    /** Per table its worker session now. */
    private final Placed[] homes;
    /** Per table the worker that made the values the transcript absorbed. */
    private final int[] firstWorker;

    /** One session per worker that the plan gives tables, its id {@code proofId/worker}. */
    SessionPlacement(ClusterPlan plan, List<String> tableNames, String proofId) {
        int count = tableNames.size();
        this.tableNames = List.copyOf(tableNames);
        this.ramBytes = plan.ramBytes();
        this.floorBytes = plan.floorBytes();
        this.chargedBytes = plan.tableBytes().clone();
        this.budgets = plan.budgets();
        this.spills = plan.spills();
        this.homes = new Placed[count];
        this.firstWorker = plan.worker().clone();
        for (int w = 0; w < budgets.length; w++) {
            List<Integer> mine = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                if (plan.worker()[i] == w) {
                    mine.add(i);
                }
            }
            if (!mine.isEmpty()) {
                Placed p =
                        new Placed(w, mine.stream().mapToInt(Integer::intValue).toArray(), proofId + "/" + w);
                placed.add(p);
                for (int i : p.tables()) {
                    homes[i] = p;
                }
            }
        }
    }

    /** {@return the worker sessions now, a copy} */
    List<Placed> placed() {
        return List.copyOf(placed);
    }

    boolean isPlaced(Placed p) {
        return placed.contains(p);
    }

    /** {@return the worker sessions that opened, a copy} */
    List<Placed> opened() {
        return List.copyOf(opened);
    }

    boolean isOpened(Placed p) {
        return opened.contains(p);
    }

    void markOpened(Placed p) {
        opened.add(p);
    }

    /** {@return the worker sessions that opened; none counts as open afterwards} */
    List<Placed> takeOpened() {
        List<Placed> out = List.copyOf(opened);
        opened.clear();
        return out;
    }

    /** {@return the worker session holding {@code table} now} */
    Placed home(int table) {
        return homes[table];
    }

    /** {@return the worker that made the values of {@code table} the transcript absorbed} */
    int firstWorker(int table) {
        return firstWorker[table];
    }

    /**
     * Marks the worker of {@code lostSession} lost and picks the live worker with the most budget left for its tables:
     * in RAM where one fits them so, else spilled on one that spills ({@link TablePlacement#roomiest}); the tables are
     * charged to it from then on.
     *
     * @return the worker, or -1 when no live worker has room for them
     */
    int roomiestLiveWorker(Placed lostSession) {
        lost.add(lostSession.worker());
        long[] left = budgets.clone();
        for (Placed q : placed) {
            left[q.worker()] -= bytes(q);
        }
        long ram = 0;
        long floor = 0;
        for (int i : lostSession.tables()) {
            ram += ramBytes[i];
            floor += floorBytes[i];
        }
        TablePlacement.Choice c = TablePlacement.roomiest(left, spills, ram, floor, w -> !lost.contains(w));
        if (c == null) {
            return -1;
        }
        for (int i : lostSession.tables()) {
            chargedBytes[i] = c.charged() == ram ? ramBytes[i] : floorBytes[i];
        }
        return c.worker();
    }

    /** {@return the names of the tables of {@code p}, quoted, for log lines and errors} */
    String names(Placed p) {
        StringBuilder s = new StringBuilder();
        for (int i : p.tables()) {
            s.append(s.isEmpty() ? "" : ", ")
                    .append('\'')
                    .append(tableNames.get(i))
                    .append('\'');
        }
        return s.toString();
    }

    /** {@return the bytes the tables of {@code p} cost their worker's budget} */
    long bytes(Placed p) {
        long need = 0;
        for (int i : p.tables()) {
            need += chargedBytes[i];
        }
        return need;
    }

    /** Puts {@code replacement} in the place of {@code lostSession} (not yet opened; its tables not yet moved). */
    void replace(Placed lostSession, Placed replacement) {
        opened.remove(lostSession);
        placed.set(placed.indexOf(lostSession), replacement);
    }

    /** Its tables are held by {@code p} from now on. */
    void rehome(Placed p) {
        for (int i : p.tables()) {
            homes[i] = p;
        }
    }
}
