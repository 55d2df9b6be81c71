package io.jstark.instrument;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ResidentMemoryTest {
    @Test
    void statusLinesAreReadInKilobytes() {
        String status =
                "Name:\tjava\nVmRSS:\t  900000 kB\nRssAnon:\t  512000 kB\nRssFile:\t   20480 kB\nRssShmem:\t       0 kB\n";
        ResidentMemory.Reading r = ResidentMemory.parse(status);
        assertThat(r.anonymous()).isEqualTo(512000L * 1024);
        assertThat(r.file()).isEqualTo(20480L * 1024);
        assertThat(ResidentMemory.parse("Name:\tjava\n")).isEqualTo(new ResidentMemory.Reading(-1, -1));
        assertThat(ResidentMemory.parse("RssAnon:\t kB\n").anonymous()).isEqualTo(-1);
    }

    @Test
    void thisProcessIsResidentWhereProcExists() {
        ResidentMemory.Reading r = ResidentMemory.read();
        if (!ResidentMemory.available()) {
            assertThat(r).isEqualTo(ResidentMemory.Reading.UNAVAILABLE);
            return;
        }
        assertThat(r.anonymous()).isPositive();
        assertThat(r.file()).isPositive();
        // touching 64 MiB of fresh heap array pages raises the anonymous peak by about that much
        try (ResidentMemory.PeakSampler sampler = ResidentMemory.PeakSampler.start(1)) {
            long before = sampler.takePeaks().anonymous();
            long[] touched = new long[8 << 20];
            for (int i = 0; i < touched.length; i += 512) {
                touched[i] = i;
            }
            long peak = sampler.takePeaks().anonymous();
            assertThat(touched[512]).isEqualTo(512);
            assertThat(peak).isGreaterThanOrEqualTo(before);
        }
    }
}
