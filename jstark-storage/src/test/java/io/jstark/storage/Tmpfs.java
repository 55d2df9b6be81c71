package io.jstark.storage;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A small tmpfs mounted for a test (needs root and mount rights; tests that need one are skipped otherwise). */
final class Tmpfs implements AutoCloseable {
    private final Path mountPoint;

    private Tmpfs(Path mountPoint) {
        this.mountPoint = mountPoint;
    }

    /** Mounts a tmpfs with {@code options} (e.g. "size=1m" or "size=1m,ro") on {@code dir}, or skips the test. */
    static Tmpfs mount(Path dir, String options) {
        int rc = run(List.of("mount", "-t", "tmpfs", "-o", options, "tmpfs", dir.toString()));
        assumeTrue(
                rc == 0,
                "cannot mount a tmpfs on " + dir + " (mount exit code " + rc
                        + "; needs root and mount rights): skipping the small-filesystem test");
        return new Tmpfs(dir);
    }

    Path path() {
        return mountPoint;
    }

    @Override
    public void close() {
        run(List.of("umount", mountPoint.toString()));
    }

    private static int run(List<String> command) {
        try {
            Process p = new ProcessBuilder(new ArrayList<>(command))
                    .redirectErrorStream(true)
                    .start();
            p.getInputStream().readAllBytes();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return -1;
            }
            return p.exitValue();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }
}
