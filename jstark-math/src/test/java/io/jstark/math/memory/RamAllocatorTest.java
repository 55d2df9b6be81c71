package io.jstark.math.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

class RamAllocatorTest {
    private static final long LARGE = RamAllocator.NativeHeap.HUGE_PAGE_MIN_BYTES + 13;

    @Test
    void aLargeBufferIsZeroedAlignedAndCountedUntilClosed() {
        RamAllocator allocator = new RamAllocator();
        try (OffHeapBuffer buffer = allocator.allocate("large", LARGE)) {
            assertThat(buffer.segment().address() % 64).isZero();
            assertThat(allocator.liveBytes()).isEqualTo(LARGE);
            for (long offset = 0; offset + Long.BYTES <= LARGE; offset += 4096) {
                assertThat(buffer.segment().get(ValueLayout.JAVA_LONG_UNALIGNED, offset))
                        .isZero();
                buffer.segment().set(ValueLayout.JAVA_LONG_UNALIGNED, offset, offset);
            }
            assertThat(buffer.segment().get(ValueLayout.JAVA_BYTE, LARGE - 1)).isZero();
        }
        assertThat(allocator.liveBytes()).isZero();
    }

    @Test
    void aClosedLargeBlockIsKeptAndTheNextBufferOfItsSizeReusesItZeroed() {
        assumeTrue(RamAllocator.NativeHeap.AVAILABLE, "native calls enabled");
        RamAllocator allocator = new RamAllocator();
        long address;
        try (OffHeapBuffer first = allocator.allocate("first", LARGE)) {
            address = first.segment().address();
            first.segment().fill((byte) 0x5A);
        }
        assertThat(allocator.retainedBytes()).isEqualTo(LARGE + 64);
        assertThat(allocator.liveBytes()).isZero();
        try (OffHeapBuffer second = allocator.allocate("second", LARGE)) {
            assertThat(second.segment().address()).isEqualTo(address);
            assertThat(allocator.retainedBytes()).isZero();
            assertThat(second.segment().address() % 64).isZero();
            for (long offset = 0; offset < LARGE; offset += 4093) {
                assertThat(second.segment().get(ValueLayout.JAVA_BYTE, offset)).isZero();
            }
            assertThat(second.segment().get(ValueLayout.JAVA_BYTE, LARGE - 1)).isZero();
        }
        allocator.releaseRetained();
        assertThat(allocator.retainedBytes()).isZero();
    }

    @Test
    void smallBuffersAreNotKept() {
        RamAllocator allocator = new RamAllocator();
        allocator
                .allocate("small", RamAllocator.NativeHeap.HUGE_PAGE_MIN_BYTES - 1)
                .close();
        assertThat(allocator.retainedBytes()).isZero();
    }

    /** Live plus kept bytes stay at or under the most bytes ever live at once: a fresh block first frees kept ones. */
    @Test
    void keptBlocksMakeRoomSoThatLivePlusKeptNeverExceedsTheHighWater() {
        assumeTrue(RamAllocator.NativeHeap.AVAILABLE, "native calls enabled");
        RamAllocator allocator = new RamAllocator();
        OffHeapBuffer a = allocator.allocate("a", LARGE);
        OffHeapBuffer b = allocator.allocate("b", LARGE + 4096);
        a.close();
        // high water: both live; one kept, one live: within it
        assertThat(allocator.retainedBytes()).isEqualTo(LARGE + 64);
        // a third size: kept a + live b + fresh c would pass the high water, so a goes back first
        try (OffHeapBuffer c = allocator.allocate("c", LARGE + 8192)) {
            assertThat(allocator.retainedBytes()).isZero();
            assertThat(allocator.liveBytes()).isEqualTo(2 * LARGE + 4096 + 8192);
        }
        b.close();
        assertThat(allocator.retainedBytes()).isEqualTo(2 * LARGE + 4096 + 8192 + 2 * 64);
        allocator.releaseRetained();
        assertThat(allocator.retainedBytes()).isZero();
        // the high water starts anew from the bytes live (none): a kept block is freed by any fresh one
        allocator.allocate("d", LARGE).close();
        try (OffHeapBuffer e = allocator.allocate("e", LARGE + 4096)) {
            assertThat(allocator.retainedBytes()).isZero();
        }
        allocator.releaseRetained();
    }

    /**
     * Where the kernel gives huge pages only to memory that asks ({@code madvise} mode), a large buffer's mapping
     * is eligible for them: it asked.
     */
    @Test
    void onLinuxALargeBufferAsksForTransparentHugePages() throws IOException {
        Path mode = Path.of("/sys/kernel/mm/transparent_hugepage/enabled");
        assumeTrue(Files.isReadable(mode) && Files.readString(mode).contains("[madvise]"), "THP mode madvise");
        assumeTrue(RamAllocator.NativeHeap.AVAILABLE, "native calls enabled");
        try (OffHeapBuffer buffer = new RamAllocator().allocate("large", LARGE)) {
            long address = buffer.segment().address() + LARGE / 2;
            assertThat(eligibility(address)).isEqualTo("1");
        }
    }

    /** The THPeligible field of the mapping of /proc/self/smaps that holds {@code address}. */
    private static String eligibility(long address) throws IOException {
        List<String> lines = Files.readAllLines(Path.of("/proc/self/smaps"));
        boolean inside = false;
        for (String line : lines) {
            if (!line.isEmpty() && Character.digit(line.charAt(0), 16) >= 0 && line.indexOf('-') > 0) {
                String[] range = line.substring(0, line.indexOf(' ')).split("-");
                long start = HexFormat.fromHexDigitsToLong(range[0]);
                long end = HexFormat.fromHexDigitsToLong(range[1]);
                inside = Long.compareUnsigned(address, start) >= 0 && Long.compareUnsigned(address, end) < 0;
            } else if (inside && line.startsWith("THPeligible:")) {
                return line.substring("THPeligible:".length()).trim();
            }
        }
        return "no mapping";
    }
}
