package io.jstark.cluster;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The leases of a worker's open proofs: each call or heartbeat of a proof's coordinator renews its lease, and once a
 * second the sessions whose coordinator has not been heard of for their lease are freed (it vanished, or it lost this
 * worker).
 */
final class WorkerLeases implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger("io.jstark.cluster.worker");

    /** An open proof's lease: when the worker last heard of its coordinator (System.nanoTime) and the lease's length. */
    private record Lease(AtomicLong lastHeard, long nanos) {}

    private final Map<String, WorkerSession> sessions;
    private final Map<String, Lease> leases = new ConcurrentHashMap<>();
    private final ScheduledExecutorService expiry = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "worker-session-expiry");
        t.setDaemon(true);
        return t;
    });

    /** Leases over these sessions (the worker's own map, by proof id); an expired one is removed from it and closed. */
    WorkerLeases(Map<String, WorkerSession> sessions) {
        this.sessions = sessions;
        expiry.scheduleWithFixedDelay(this::expireSessions, 1, 1, TimeUnit.SECONDS);
    }

    /** Starts the lease of {@code proofId}, now, for {@code millis}. */
    void grant(String proofId, long millis) {
        leases.put(proofId, new Lease(new AtomicLong(System.nanoTime()), TimeUnit.MILLISECONDS.toNanos(millis)));
    }

    /** The coordinator of {@code proofId} was heard of now: its lease starts again. */
    void heard(String proofId) {
        Lease lease = leases.get(proofId);
        if (lease != null) {
            lease.lastHeard().set(System.nanoTime());
        }
    }

    /** The proof closed: it has no lease any more. */
    void end(String proofId) {
        leases.remove(proofId);
    }

    private void expireSessions() {
        long now = System.nanoTime();
        for (Map.Entry<String, Lease> e : leases.entrySet()) {
            Lease lease = e.getValue();
            if (now - lease.lastHeard().get() > lease.nanos() && leases.remove(e.getKey(), lease)) {
                WorkerSession s = sessions.remove(e.getKey());
                if (s != null) {
                    long peak = s.closeAndPeak();
                    LOG.log(
                            System.Logger.Level.WARNING,
                            "proof {0}: expired, nothing heard of its coordinator for {1} ms; {2} bytes released "
                                    + "(peak resident anonymous memory while it was open: {3} bytes)",
                            e.getKey(),
                            lease.nanos() / 1_000_000,
                            s.reservedBytes(),
                            peak);
                }
            }
        }
    }

    /** Stops expiring. */
    @Override
    public void close() {
        expiry.shutdownNow();
    }
}
