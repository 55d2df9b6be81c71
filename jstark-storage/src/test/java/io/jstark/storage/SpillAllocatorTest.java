package io.jstark.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.jstark.math.memory.Matrix;
import io.jstark.math.memory.OffHeapBuffer;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SpillAllocatorTest {
    private static final long MIB = 1 << 20;

    @TempDir
    Path dir;

    private static long entries(Path p) throws IOException {
        try (Stream<Path> s = Files.list(p)) {
            return s.count();
        }
    }

    @Test
    void buffersAreZeroedMappedFilesWithNoNameLeftOnDisk() throws IOException {
        try (SpillAllocator spill = SpillAllocator.open(dir, MIB)) {
            Path session = spill.directory();
            assertThat(session.getParent()).isEqualTo(dir.toAbsolutePath().normalize());
            try (Matrix m = Matrix.allocate(spill, "table/main-lde", 4096, 3)) {
                for (int c = 0; c < 3; c++) {
                    for (long v : m.columnToArray(c)) {
                        assertThat(v).isZero();
                    }
                }
                for (int r = 0; r < 4096; r++) {
                    m.set(r, 2, r * 31L);
                }
                assertThat(m.get(4095, 2)).isEqualTo(4095 * 31L);
                assertThat(m.segment().isMapped()).isTrue();
                assertThat(spill.liveBytes()).isEqualTo(4096L * 3 * 8);
                // unlinked as soon as mapped: nothing to leave behind, even on kill -9
                assertThat(entries(session)).isZero();
            }
            assertThat(spill.liveBytes()).isZero();
            assertThat(spill.peakBytes()).isEqualTo(4096L * 3 * 8);
            assertThat(Files.exists(session)).isTrue();
        }
        assertThat(entries(dir)).as("the session directory is removed on close").isZero();
    }

    /**
     * Spill mappings are advised random (no readahead around a fault): the kernel marks the mapping "rr" in
     * /proc/self/smaps. With readahead, every fault of a step that walks all columns reads a window per column
     * (8 MiB on this VM's disk) and the pages in use outgrow a memory cgroup.
     */
    @Test
    void spillMappingsAreAdvisedRandom() throws IOException {
        Path smaps = Path.of("/proc/self/smaps");
        assumeTrue(Files.isReadable(smaps) && NativeFiles.available(), "needs Linux's /proc/self/smaps");
        try (SpillAllocator spill = SpillAllocator.open(dir, 4 * MIB);
                OffHeapBuffer buffer = spill.allocate("t/main-lde", 2 * MIB)) {
            long address = buffer.segment().address();
            String flags = null;
            boolean inside = false;
            for (String line : Files.readAllLines(smaps)) {
                if (line.matches("^[0-9a-f]+-[0-9a-f]+ .*")) {
                    String[] range = line.substring(0, line.indexOf(' ')).split("-");
                    inside = Long.parseUnsignedLong(range[0], 16) <= address
                            && address < Long.parseUnsignedLong(range[1], 16);
                } else if (inside && line.startsWith("VmFlags:")) {
                    flags = line;
                }
            }
            assertThat(flags).as("the mapping of the spill buffer").isNotNull();
            assertThat(flags.substring("VmFlags:".length()).trim().split(" ")).contains("rr");
        }
    }

    @Test
    void closingTheSessionReleasesBuffersItsOwnersForgot() {
        SpillAllocator spill = SpillAllocator.open(dir, 0);
        OffHeapBuffer forgotten = spill.allocate("t/deep", 1000);
        assertThat(spill.openBuffers()).isEqualTo(1);
        spill.close();
        assertThat(forgotten.isClosed()).isTrue();
        assertThat(spill.liveBytes()).isZero();
        assertThatThrownBy(() -> spill.allocate("t/late", 8))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
    }

    @Test
    void mapsBuffersLargerThanTwoGibibytes() {
        long bytes = (2L << 30) + (256L << 20);
        assumeTrue(SpillDirectory.usableSpace(dir) > 4 * bytes, "less than " + 4 * bytes + " bytes free under " + dir);
        try (SpillAllocator spill = SpillAllocator.open(dir, bytes);
                OffHeapBuffer b = spill.allocate("t/huge", bytes)) {
            MemorySegment s = b.segment();
            assertThat(s.byteSize()).isEqualTo(bytes);
            s.set(ValueLayout.JAVA_LONG, bytes - 8, 0x1234_5678_9abcL);
            s.set(ValueLayout.JAVA_LONG, 1L << 31, 42L);
            assertThat(s.get(ValueLayout.JAVA_LONG, bytes - 8)).isEqualTo(0x1234_5678_9abcL);
            assertThat(s.get(ValueLayout.JAVA_LONG, 1L << 31)).isEqualTo(42L);
            assertThat(s.get(ValueLayout.JAVA_LONG, bytes - 16)).isZero();
        }
    }

    @Test
    void sessionsOfProcessesThatNoLongerRunAreRemoved() throws Exception {
        Process p = new ProcessBuilder("true").start();
        p.waitFor();
        long deadPid = p.pid();
        assumeTrue(ProcessHandle.of(deadPid).isEmpty(), "pid " + deadPid + " was reused");
        Path stale = Files.createDirectory(dir.resolve(SpillDirectory.SESSION_PREFIX + deadPid + "-123"));
        Files.writeString(stale.resolve("reservation"), "left by a kill -9");
        Path other = Files.createDirectory(dir.resolve("unrelated"));
        try (SpillAllocator spill = SpillAllocator.open(dir, 0)) {
            assertThat(Files.exists(stale)).isFalse();
            assertThat(Files.exists(other)).isTrue();
        }
    }

    @Test
    void missingOrNonDirectorySpillPathsAreRefusedNamingTheOption() throws IOException {
        Path missing = dir.resolve("nope");
        assertThatThrownBy(() -> SpillAllocator.open(missing, 0))
                .isInstanceOf(SpillDirectoryException.class)
                .hasMessageContaining("does not exist")
                .hasMessageContaining("--spill-dir")
                .hasMessageContaining("JSTARK_SPILL_DIR");
        Path file = Files.writeString(dir.resolve("file"), "x");
        assertThatThrownBy(() -> SpillAllocator.open(file, 0))
                .isInstanceOf(SpillDirectoryException.class)
                .hasMessageContaining("is not a directory");
    }

    @Test
    void aFullFilesystemIsAnErrorUpFrontAndAtAllocationNeverACrash() throws IOException {
        Path mount = Files.createDirectory(dir.resolve("tiny"));
        try (Tmpfs tmpfs = Tmpfs.mount(mount, "size=1m")) {
            assertThatThrownBy(() -> SpillAllocator.open(mount, 4 * MIB))
                    .isInstanceOf(SpillSpaceException.class)
                    .hasMessageContaining("needs 4.0 MiB")
                    .hasMessageContaining("tmpfs")
                    .hasMessageContaining("--spill-dir")
                    .hasMessageContaining("--memory-budget");
            assertThat(entries(mount)).isZero();
            try (SpillAllocator spill = SpillAllocator.open(mount, 0)) {
                // no reservation: the file's own blocks are allocated before mapping, so the disk being full is an
                // error code
                assertThatThrownBy(() -> spill.allocate("t/aux-lde", 2 * MIB))
                        .isInstanceOf(SpillSpaceException.class)
                        .hasMessageContaining("is full")
                        .hasMessageContaining("t/aux-lde");
                assertThat(entries(spill.directory())).isZero();
                try (OffHeapBuffer fits = spill.allocate("t/small", 256 * 1024)) {
                    fits.segment().fill((byte) 7);
                    assertThat(fits.segment().get(ValueLayout.JAVA_BYTE, 256 * 1024 - 1))
                            .isEqualTo((byte) 7);
                }
            }
            assertThat(entries(mount)).isZero();
        }
    }

    @Test
    void theSpillPeakIsReservedBeforeAnyAllocation() throws IOException {
        Path mount = Files.createDirectory(dir.resolve("reserve"));
        try (Tmpfs tmpfs = Tmpfs.mount(mount, "size=64m")) {
            long free = SpillDirectory.usableSpace(mount);
            try (SpillAllocator spill = SpillAllocator.open(mount, 32 * MIB)) {
                assertThat(spill.reservedBytes()).isEqualTo(32 * MIB);
                assertThat(SpillDirectory.usableSpace(mount)).isLessThanOrEqualTo(free - 32 * MIB);
                // someone else fills the disk: the reserved space is still there for the proof
                Path hog = mount.resolve("other-process");
                try (var out = Files.newOutputStream(hog)) {
                    byte[] block = new byte[(int) MIB];
                    for (int i = 0; i < 40; i++) {
                        out.write(block);
                    }
                } catch (IOException full) {
                    // expected: only the unreserved space could be taken
                }
                try (OffHeapBuffer b = spill.allocate("t/main-lde", 24 * MIB)) {
                    b.segment().fill((byte) 1);
                    assertThat(spill.reservedBytes()).isEqualTo(8 * MIB);
                }
                assertThat(spill.reservedBytes()).isEqualTo(32 * MIB);
                Files.delete(hog);
            }
            assertThat(SpillDirectory.usableSpace(mount)).isEqualTo(free);
        }
    }

    @Test
    void aReadOnlySpillDirectoryIsRefused() throws IOException {
        Path mount = Files.createDirectory(dir.resolve("ro"));
        try (Tmpfs tmpfs = Tmpfs.mount(mount, "size=1m,ro")) {
            assertThatThrownBy(() -> SpillAllocator.open(mount, 0))
                    .isInstanceOf(SpillDirectoryException.class)
                    .hasMessageContaining("not writable")
                    .hasMessageContaining("--spill-dir");
        }
    }
}
