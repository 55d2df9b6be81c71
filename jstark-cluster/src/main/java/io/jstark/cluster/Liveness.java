package io.jstark.cluster;

import java.time.Duration;
import java.util.Objects;

/**
 * How a proof's workers are watched between calls. While a proof is open, the coordinator sends each of its workers a
 * heartbeat every {@code interval}, naming the proof's sessions there; a worker that does not answer within
 * {@code timeout} (unreachable, dead, or hanging) is lost, and its tables move to another worker at once, not at the
 * next round. A worker frees a session it has heard nothing of (no call, no heartbeat) for the {@link #lease()}: its
 * coordinator is gone.
 *
 * @param interval the time between two heartbeats to a worker
 * @param timeout the most a heartbeat's answer may take
 */
public record Liveness(Duration interval, Duration timeout) {
    /** A heartbeat every 5 s, a worker lost after 30 s without an answer. */
    public static final Liveness DEFAULT = new Liveness(Duration.ofSeconds(5), Duration.ofSeconds(30));

    /**
     * @throws IllegalArgumentException when either duration is not positive
     */
    public Liveness {
        Objects.requireNonNull(interval, "interval");
        Objects.requireNonNull(timeout, "timeout");
        if (interval.isNegative() || interval.isZero() || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException(
                    "heartbeat interval and timeout must be positive, got " + interval + " and " + timeout);
        }
    }

    /**
     * {@return how long a worker keeps a session it hears nothing of}: three intervals and a timeout, so that two lost
     * heartbeats do not cost the proof its tables
     */
    public Duration lease() {
        return interval.multipliedBy(3).plus(timeout);
    }

    /** {@return the longest a worker lost between calls goes unnoticed: an interval and a timeout} */
    public Duration detection() {
        return interval.plus(timeout);
    }
}
