package io.jstark.cluster;

import io.jstark.cluster.wire.HeartbeatReply;
import io.jstark.cluster.wire.HeartbeatRequest;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The heartbeats of one proof: every liveness interval one heartbeat to each open worker session that is not waiting
 * for its previous one, from the first beat after that session opened (other sessions of the proof may still be
 * opening). A worker that does not answer within the liveness's timeout, or no longer holds the session, is lost, and
 * the session moves its tables at once (while other sessions still open too: the replacement opens and the others'
 * opens go on).
 */
final class SessionHeartbeats implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger("io.jstark.cluster.coordinator");

    private final RemoteSession session;
    private final WorkerCalls calls;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "cluster-heartbeat");
        t.setDaemon(true);
        return t;
    });
    /** Worker sessions whose heartbeat is in flight. */
    private final Set<SessionPlacement.Placed> beating = ConcurrentHashMap.newKeySet();

    SessionHeartbeats(RemoteSession session, WorkerCalls calls) {
        this.session = session;
        this.calls = calls;
    }

    /** Starts beating, every liveness interval. */
    void start() {
        long every = calls.liveness().interval().toMillis();
        timer.scheduleWithFixedDelay(this::beat, every, every, TimeUnit.MILLISECONDS);
    }

    private void beat() {
        List<SessionPlacement.Placed> now = session.openedSessions();
        for (SessionPlacement.Placed p : now) {
            if (!beating.add(p)) {
                continue;
            }
            if (!calls.submit(() -> beatOnce(p))) {
                beating.remove(p);
            }
        }
    }

    private void beatOnce(SessionPlacement.Placed p) {
        try {
            HeartbeatReply reply = calls.heartbeatStub(p.worker())
                    .heartbeat(HeartbeatRequest.newBuilder()
                            .addProofIds(p.sessionId())
                            .build());
            if (reply.getUnknownProofIdsCount() > 0 && !session.closing()) {
                session.replace(
                        p,
                        "heartbeat",
                        new ClusterException("worker " + calls.workers().get(p.worker()) + " no longer holds session "
                                + p.sessionId()));
            }
        } catch (RuntimeException e) {
            if (WorkerCalls.lostWorker(e) && !session.closing()) {
                try {
                    session.replace(p, "heartbeat", e);
                } catch (RuntimeException failed) {
                    // the next call to the lost session meets the same failure and reports it to the prover
                    LOG.log(System.Logger.Level.WARNING, "heartbeat: {0}", failed.getMessage());
                }
            }
        } finally {
            beating.remove(p);
        }
    }

    /** Stops the heartbeats (one in flight ends on its own). */
    @Override
    public void close() {
        timer.shutdownNow();
    }
}
