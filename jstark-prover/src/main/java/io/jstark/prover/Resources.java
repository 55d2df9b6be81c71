package io.jstark.prover;

import java.util.List;

/** Releasing what a proof holds, on every path. */
final class Resources {
    private Resources() {}

    /**
     * Closes every resource, the last first, even when one fails; the first failure is thrown with the others
     * suppressed in it.
     */
    static void closeAll(List<AutoCloseable> resources) {
        RuntimeException failure = null;
        for (int i = resources.size() - 1; i >= 0; i--) {
            try {
                resources.get(i).close();
            } catch (Exception e) {
                if (failure == null) {
                    failure = new IllegalStateException("could not release " + resources.get(i), e);
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
