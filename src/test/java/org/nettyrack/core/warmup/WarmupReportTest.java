package org.nettyrack.core.warmup;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class WarmupReportTest {
    @Test
    void saysWhatItDidAndWhatFailed() {
        WarmupReport report = new WarmupReport(4210, 12_420, List.of(80.4, 950.2, 900.0), WarmupProgress.Stop.PLATEAU,
            List.of("GET /boom: 500 Internal Server Error"));
        assertEquals("warmed up in 12.4 s: 4,210 requests, from 80 to 950 req/s (throughput flat, JIT quiet); "
            + "failed: GET /boom: 500 Internal Server Error", report.summary());
        assertEquals("warmed up in 0.2 s: 1 request (every request failed)",
            new WarmupReport(1, 200, List.of(), WarmupProgress.Stop.FAILED, List.of()).summary());
    }
}
