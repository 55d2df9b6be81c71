package io.jstark.scheduler;

import java.util.ArrayDeque;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Admits tables by their estimated bytes under a budget. Only driver threads call {@link #acquire}; the
 * pool workers that do a table's numeric work never touch the gate, so a blocked driver never holds up
 * the work of admitted tables.
 *
 * <p><b>Admission.</b> A request is admitted when its bytes fit in what the budget has left. A request
 * larger than the whole budget is admitted only when nothing is held; while it holds, the held bytes
 * exceed the budget, so nothing else that holds bytes is admitted until it releases: it runs alone.
 * Requests of zero bytes hold nothing and are admitted whenever they reach the head of the line while
 * the budget is not exceeded.
 *
 * <p><b>No starvation.</b> Waiters are admitted strictly in arrival order: a waiter that does not fit
 * stops everyone behind it, even those that would fit, so small requests cannot keep jumping ahead of a
 * large one. While the head waits, nobody is admitted, so the held bytes only fall as holders release;
 * at the latest when they reach zero the head is admitted (it fits, or it is oversized and runs alone).
 * Holders are tasks that run to completion without waiting on the gate, so each waiter waits for at most
 * the finitely many requests ahead of it.
 *
 * <p><b>Closing.</b> {@link #close()} ends a cancelled pass: waiting and later acquires return false
 * without being admitted; releases still work, so holders give back what they hold.
 */
public final class MemoryGate {
    private final long budget;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    /** Tickets of the waiting requests, in arrival order; the head is the only one that may be admitted. */
    private final ArrayDeque<Object> line = new ArrayDeque<>();

    private long held;
    private long peakHeld;
    private boolean closed;

    /**
     * A gate with nothing held.
     *
     * @param budget bytes the gate admits at once, at least 1; {@link Long#MAX_VALUE} means unlimited
     */
    public MemoryGate(long budget) {
        if (budget < 1) {
            throw new IllegalArgumentException("memory budget must be at least 1 byte, got " + budget);
        }
        this.budget = budget;
    }

    /** {@return the bytes the gate admits at once; {@link Long#MAX_VALUE} for unlimited} */
    public long budget() {
        return budget;
    }

    /**
     * Blocks until {@code bytes} are admitted, then holds them until {@link #release}.
     *
     * @param bytes the bytes to hold, at least 0 (a request above the budget is admitted alone, once nothing is held)
     * @return true once admitted; false if the gate was closed first (nothing is held then)
     * @throws InterruptedException if the thread is interrupted while waiting (nothing is held then)
     */
    public boolean acquire(long bytes) throws InterruptedException {
        if (bytes < 0) {
            throw new IllegalArgumentException("cannot acquire a negative number of bytes: " + bytes);
        }
        lock.lockInterruptibly();
        try {
            if (closed) {
                return false;
            }
            if (line.isEmpty() && fits(bytes)) {
                hold(bytes);
                return true;
            }
            Object ticket = new Object();
            line.addLast(ticket);
            boolean admitted = false;
            try {
                while (!closed) {
                    if (line.peekFirst() == ticket && fits(bytes)) {
                        line.removeFirst();
                        hold(bytes);
                        admitted = true;
                        // the next in line may fit in what is left
                        changed.signalAll();
                        return true;
                    }
                    changed.await();
                }
                return false;
            } finally {
                if (!admitted) {
                    line.remove(ticket);
                    // if this was the head, the next one may now be admitted
                    changed.signalAll();
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Gives back bytes admitted by {@link #acquire}. Never blocks on interrupts, so it is safe in finally blocks.
     *
     * @param bytes the bytes an earlier acquire admitted
     */
    public void release(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("cannot release a negative number of bytes: " + bytes);
        }
        lock.lock();
        try {
            if (bytes > held) {
                throw new IllegalStateException("releasing " + bytes + " bytes but only " + held + " are held");
            }
            held -= bytes;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Refuses every waiting and later acquire (they return false); releases go on working. */
    public void close() {
        lock.lock();
        try {
            closed = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** {@return the bytes held now} */
    public long held() {
        lock.lock();
        try {
            return held;
        } finally {
            lock.unlock();
        }
    }

    /** {@return the most bytes held at once since the gate was made} */
    public long peakHeld() {
        lock.lock();
        try {
            return peakHeld;
        } finally {
            lock.unlock();
        }
    }

    /** {@return the number of requests waiting now} */
    public int waiting() {
        lock.lock();
        try {
            return line.size();
        } finally {
            lock.unlock();
        }
    }

    private boolean fits(long bytes) {
        // held never exceeds max(budget, one oversized request), so budget - held cannot overflow
        return held == 0 || bytes <= budget - held;
    }

    private void hold(long bytes) {
        held += bytes;
        peakHeld = Math.max(peakHeld, held);
    }
}
