package io.jstark.scheduler;

import static org.assertj.core.api.Assertions.fail;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Test helpers for concurrent code: bounded waits (a deadlock fails the test instead of hanging it) and thread checks. */
final class Bounded {
    static final Duration LIMIT = Duration.ofSeconds(20);

    private Bounded() {}

    /** Runs {@code body} on its own thread and returns its result, or fails with a thread dump after {@code limit}. */
    static <T> T within(Duration limit, Callable<T> body) throws Exception {
        FutureTask<T> future = new FutureTask<>(body);
        Thread runner =
                Thread.ofPlatform().name("bounded-test-body").daemon(true).start(future);
        try {
            return future.get(limit.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            String dump = threadDump();
            runner.interrupt();
            return fail("did not finish within " + limit + " (deadlock?); threads:\n" + dump);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Exception cause) {
                throw cause;
            }
            throw (Error) e.getCause();
        }
    }

    static <T> T within(Callable<T> body) throws Exception {
        return within(LIMIT, body);
    }

    /** Driver threads still alive (there must be none once runAll has returned or thrown). */
    static long liveDrivers() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith(ConcurrentExecutor.DRIVER_THREAD_PREFIX))
                .count();
    }

    /** Polls {@code condition} until it holds or the limit passes. */
    static void await(String what, java.util.function.BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + LIMIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail("timed out waiting for " + what + "; threads:\n" + threadDump());
            }
            Thread.sleep(1);
        }
    }

    static String threadDump() {
        StringBuilder out = new StringBuilder();
        for (Map.Entry<Thread, StackTraceElement[]> e :
                Thread.getAllStackTraces().entrySet()) {
            out.append(e.getKey().getName())
                    .append(' ')
                    .append(e.getKey().getState())
                    .append('\n');
            for (StackTraceElement frame : e.getValue()) {
                out.append("    at ").append(frame).append('\n');
            }
        }
        return out.toString();
    }
}
