package io.jstark.math.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
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
        RamAllocator allocator = RamAllocator.keepingBlocks(0);
        long address;
        try (OffHeapBuffer first = allocator.allocate("first", LARGE)) {
            address = first.segment().address();
            first.segment().fill((byte) 0x5A);
        }
        assertThat(allocator.retainedBytes()).isEqualTo(LARGE);
        assertThat(allocator.liveBytes()).isZero();
        for (int round = 0; round < 2; round++) {
            try (OffHeapBuffer again = allocator.allocate("again", LARGE)) {
                assertThat(again.segment().address()).isEqualTo(address);
                assertThat(allocator.retainedBytes()).isZero();
                for (long offset = 0; offset < LARGE; offset += 4093) {
                    assertThat(again.segment().get(ValueLayout.JAVA_BYTE, offset))
                            .isZero();
                }
                assertThat(again.segment().get(ValueLayout.JAVA_BYTE, LARGE - 1))
                        .isZero();
                again.segment().fill((byte) 0x33);
            }
            assertThat(allocator.retainedBytes()).isEqualTo(LARGE);
        }
        allocator.releaseRetained();
        assertThat(allocator.retainedBytes()).isZero();
    }

    /** A block kept only a moment is freed rather than reused: the next buffer of its size gets fresh pages. */
    @Test
    void aBlockKeptTooBrieflyIsFreedAndTheBufferGetsFreshPages() {
        assumeTrue(RamAllocator.NativeHeap.AVAILABLE, "native calls enabled");
        RamAllocator allocator = RamAllocator.keepingBlocks(60_000_000_000L);
        try (OffHeapBuffer first = allocator.allocate("first", LARGE)) {
            first.segment().fill((byte) 0x5A);
        }
        assertThat(allocator.retainedBytes()).isEqualTo(LARGE);
        try (OffHeapBuffer second = allocator.allocate("second", LARGE)) {
            assertThat(allocator.retainedBytes()).isZero();
            for (long offset = 0; offset < LARGE; offset += 4093) {
                assertThat(second.segment().get(ValueLayout.JAVA_BYTE, offset)).isZero();
            }
        }
        allocator.releaseRetained();
    }

    @Test
    void smallBuffersAndAllocatorsOtherThanTheSharedOneKeepNothing() {
        RamAllocator keeping = RamAllocator.keepingBlocks(0);
        keeping.allocate("small", RamAllocator.NativeHeap.HUGE_PAGE_MIN_BYTES - 1)
                .close();
        assertThat(keeping.retainedBytes()).isZero();
        RamAllocator plain = new RamAllocator();
        plain.allocate("large", LARGE).close();
        assertThat(plain.retainedBytes()).isZero();
    }

    /** Live plus kept bytes stay at or under the most bytes ever live at once: a fresh block first frees kept ones. */
    @Test
    void keptBlocksMakeRoomSoThatLivePlusKeptNeverExceedsTheHighWater() {
        assumeTrue(RamAllocator.NativeHeap.AVAILABLE, "native calls enabled");
        RamAllocator allocator = RamAllocator.keepingBlocks(0);
        OffHeapBuffer a = allocator.allocate("a", LARGE);
        OffHeapBuffer b = allocator.allocate("b", LARGE + 4096);
        OffHeapBuffer c = allocator.allocate("c", LARGE + 8192);
        long highWater = 3 * LARGE + 12_288;
        assertThat(allocator.highWaterBytes()).isEqualTo(highWater);
        a.close();
        b.close();
        assertThat(allocator.retainedBytes()).isEqualTo(2 * LARGE + 4096);
        // a's size again: its block, nothing freed
        allocator.allocate("a again", LARGE).close();
        assertThat(allocator.retainedBytes()).isEqualTo(2 * LARGE + 4096);
        c.close();
        assertThat(allocator.retainedBytes()).isEqualTo(highWater);
        // a size nothing kept has: kept blocks are freed one at a time until it fits, so one goes, not all
        try (OffHeapBuffer d = allocator.allocate("d", LARGE - 8192)) {
            assertThat(allocator.retainedBytes()).isBetween(2 * LARGE + 4096, 2 * LARGE + 12_288);
            assertThat(allocator.liveBytes() + allocator.retainedBytes()).isLessThanOrEqualTo(highWater);
        }
        allocator.releaseRetained();
        assertThat(allocator.retainedBytes()).isZero();
        assertThat(allocator.highWaterBytes()).isZero();
        // the high water starts anew from the bytes live (none): a kept block is freed by any fresh one
        allocator.allocate("e", LARGE).close();
        try (OffHeapBuffer f = allocator.allocate("f", LARGE + 4096)) {
            assertThat(allocator.retainedBytes()).isZero();
        }
        allocator.releaseRetained();
    }

    /** A buffer too small to be kept counts too: kept blocks make room for it. */
    @Test
    void smallBuffersMakeRoomToo() {
        assumeTrue(RamAllocator.NativeHeap.AVAILABLE, "native calls enabled");
        RamAllocator allocator = RamAllocator.keepingBlocks(0);
        long small = RamAllocator.NativeHeap.HUGE_PAGE_MIN_BYTES - 1;
        allocator.allocate("large", 4 * small).close();
        List<OffHeapBuffer> held = new ArrayList<>();
        for (int k = 0; k < 5; k++) {
            held.add(allocator.allocate("small " + k, small));
            assertThat(allocator.liveBytes() + allocator.retainedBytes())
                    .isLessThanOrEqualTo(allocator.highWaterBytes());
        }
        assertThat(allocator.retainedBytes()).isZero();
        held.forEach(OffHeapBuffer::close);
    }

    /** Threads allocating and closing buffers of a few sizes: every buffer reads zero, and the bound holds throughout. */
    @Test
    void concurrentBuffersReadZeroAndKeepTheBound() throws Exception {
        assumeTrue(RamAllocator.NativeHeap.AVAILABLE, "native calls enabled");
        RamAllocator allocator = RamAllocator.keepingBlocks(0);
        long[] sizes = {LARGE, LARGE + 4096, 2 * LARGE, RamAllocator.NativeHeap.HUGE_PAGE_MIN_BYTES / 2};
        int threads = 4;
        ExecutorService executor = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int seed = t;
                done.add(executor.submit(() -> {
                    SplittableRandom random = new SplittableRandom(seed);
                    for (int round = 0; round < 40; round++) {
                        long bytes = sizes[random.nextInt(sizes.length)];
                        try (OffHeapBuffer buffer = allocator.allocate("stress", bytes)) {
                            for (long offset = 0; offset < bytes; offset += 65_521) {
                                assertThat(buffer.segment().get(ValueLayout.JAVA_BYTE, offset))
                                        .isZero();
                            }
                            assertThat(buffer.segment().get(ValueLayout.JAVA_BYTE, bytes - 1))
                                    .isZero();
                            buffer.segment().fill((byte) (round + 1));
                            assertThat(allocator.liveBytes() + allocator.retainedBytes())
                                    .isLessThanOrEqualTo(allocator.highWaterBytes());
                        }
                        if (round % 13 == 12) {
                            allocator.releaseRetained();
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            executor.shutdownNow();
        }
        assertThat(allocator.liveBytes()).isZero();
        assertThat(allocator.retainedBytes()).isLessThanOrEqualTo(allocator.highWaterBytes());
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
