package io.jstark.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 20, unit = TimeUnit.SECONDS)
class MemoryGateTest {

    /** Acquires on a new thread; the future completes with acquire's answer. */
    private static CompletableFuture<Boolean> acquireAsync(MemoryGate gate, long bytes, Thread[] threadOut) {
        CompletableFuture<Boolean> result = new CompletableFuture<>();
        Thread t = Thread.ofPlatform().daemon(true).start(() -> {
            try {
                result.complete(gate.acquire(bytes));
            } catch (Throwable e) {
                result.completeExceptionally(e);
            }
        });
        if (threadOut != null) {
            threadOut[0] = t;
        }
        return result;
    }

    @Test
    void admitsWhatFitsAndTracksHeldAndPeak() throws Exception {
        MemoryGate gate = new MemoryGate(100);
        assertThat(gate.acquire(60)).isTrue();
        assertThat(gate.acquire(40)).isTrue();
        assertThat(gate.held()).isEqualTo(100);
        gate.release(60);
        assertThat(gate.acquire(0)).isTrue();
        assertThat(gate.held()).isEqualTo(40);
        assertThat(gate.peakHeld()).isEqualTo(100);
        gate.release(40);
        assertThat(gate.held()).isZero();
    }

    @Test
    void anOversizedRequestWaitsUntilNothingIsHeldThenHoldsAlone() throws Exception {
        MemoryGate gate = new MemoryGate(100);
        assertThat(gate.acquire(10)).isTrue();
        CompletableFuture<Boolean> big = acquireAsync(gate, 250, null);
        Bounded.await("the oversized request to wait", () -> gate.waiting() == 1);
        assertThat(big).isNotDone();
        gate.release(10);
        assertThat(big.get()).isTrue();
        assertThat(gate.held()).isEqualTo(250);
        // while it holds, even a tiny or empty request waits: it runs alone
        CompletableFuture<Boolean> small = acquireAsync(gate, 1, null);
        CompletableFuture<Boolean> empty = acquireAsync(gate, 0, null);
        Bounded.await("both to wait", () -> gate.waiting() == 2);
        gate.release(250);
        assertThat(small.get()).isTrue();
        assertThat(empty.get()).isTrue();
        assertThat(gate.peakHeld()).isEqualTo(250);
    }

    @Test
    void arrivalsWaitBehindAHeadThatDoesNotFitSoItCannotStarve() throws Exception {
        MemoryGate gate = new MemoryGate(100);
        assertThat(gate.acquire(50)).isTrue();
        CompletableFuture<Boolean> large = acquireAsync(gate, 80, null);
        Bounded.await("the large request to wait", () -> gate.waiting() == 1);
        // 30 would fit in the 50 left, but it must not jump ahead of the waiting 80
        CompletableFuture<Boolean> small = acquireAsync(gate, 30, null);
        Bounded.await("the small request to queue", () -> gate.waiting() == 2);
        assertThat(small).isNotDone();
        gate.release(50);
        assertThat(large.get()).isTrue();
        assertThat(small).isNotDone();
        gate.release(80);
        assertThat(small.get()).isTrue();
    }

    @Test
    void anInterruptedWaiterLeavesTheLineWithoutHoldingAndTheNextIsAdmitted() throws Exception {
        MemoryGate gate = new MemoryGate(100);
        assertThat(gate.acquire(90)).isTrue();
        Thread[] waiter = new Thread[1];
        CompletableFuture<Boolean> head = acquireAsync(gate, 50, waiter);
        Bounded.await("the head to wait", () -> gate.waiting() == 1);
        CompletableFuture<Boolean> next = acquireAsync(gate, 10, null);
        Bounded.await("the next to wait", () -> gate.waiting() == 2);
        waiter[0].interrupt();
        assertThat(next.get()).isTrue();
        assertThat(head)
                .failsWithin(java.time.Duration.ofSeconds(10))
                .withThrowableThat()
                .havingCause()
                .isInstanceOf(InterruptedException.class);
        assertThat(gate.held()).isEqualTo(100);
        assertThat(gate.waiting()).isZero();
    }

    @Test
    void closingTurnsWaitersAwayAndReleasesStillWork() throws Exception {
        MemoryGate gate = new MemoryGate(10);
        assertThat(gate.acquire(10)).isTrue();
        CompletableFuture<Boolean> waiting = acquireAsync(gate, 5, null);
        Bounded.await("the request to wait", () -> gate.waiting() == 1);
        gate.close();
        assertThat(waiting.get()).isFalse();
        assertThat(gate.acquire(0)).isFalse();
        gate.release(10);
        assertThat(gate.held()).isZero();
        assertThat(gate.waiting()).isZero();
    }

    @Test
    void rejectsNonsense() {
        assertThatThrownBy(() -> new MemoryGate(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("0");
        MemoryGate gate = new MemoryGate(10);
        assertThatThrownBy(() -> gate.acquire(-1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("-1");
        assertThatThrownBy(() -> gate.release(1))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("releasing 1 bytes but only 0 are held");
    }

    @Test
    void anUnlimitedBudgetAdmitsHugeRequestsTogether() throws Exception {
        MemoryGate gate = new MemoryGate(Long.MAX_VALUE);
        assertThat(gate.acquire(Long.MAX_VALUE / 2)).isTrue();
        assertThat(gate.acquire(Long.MAX_VALUE / 2)).isTrue();
        assertThat(gate.held()).isEqualTo(Long.MAX_VALUE / 2 * 2);
    }
}
