package org.nettyrack.core.config;

import static org.nettyrack.core.config.Bounds.accepts;
import static org.nettyrack.core.config.Bounds.refuses;

import org.junit.jupiter.api.Test;

class RequestLimitsTest {
    private static final RequestLimits D = RequestLimits.DEFAULTS;

    @Test
    void theDefaultsPass() {
        accepts(D::check);
    }

    @Test
    void eachLimitHasItsFloor() {
        accepts(new RequestLimits(64, 256, 1, 256, 0, 0, 0)::check);
        refuses("max URI length must be at least 64 bytes, got 63",
            new RequestLimits(63, D.maxHeaderSize(), D.maxHeaders(), D.maxChunkExtensions(), D.maxBodySize(), D.bodyBufferSize(), D.maxDiscardSize())::check);
        refuses("max header size must be at least 256 bytes, got 255",
            new RequestLimits(D.maxUriLength(), 255, D.maxHeaders(), D.maxChunkExtensions(), D.maxBodySize(), D.bodyBufferSize(), D.maxDiscardSize())::check);
        refuses("max headers must be 1 or more, got 0",
            new RequestLimits(D.maxUriLength(), D.maxHeaderSize(), 0, D.maxChunkExtensions(), D.maxBodySize(), D.bodyBufferSize(), D.maxDiscardSize())::check);
        refuses("max chunk extensions must be at least 256 bytes, got 255",
            new RequestLimits(D.maxUriLength(), D.maxHeaderSize(), D.maxHeaders(), 255, D.maxBodySize(), D.bodyBufferSize(), D.maxDiscardSize())::check);
        refuses("max body size must be 0 or more, got -1",
            new RequestLimits(D.maxUriLength(), D.maxHeaderSize(), D.maxHeaders(), D.maxChunkExtensions(), -1, D.bodyBufferSize(), D.maxDiscardSize())::check);
        refuses("body buffer size must be 0 or more, got -1",
            new RequestLimits(D.maxUriLength(), D.maxHeaderSize(), D.maxHeaders(), D.maxChunkExtensions(), D.maxBodySize(), -1, D.maxDiscardSize())::check);
        refuses("max discard size must be 0 or more, got -1",
            new RequestLimits(D.maxUriLength(), D.maxHeaderSize(), D.maxHeaders(), D.maxChunkExtensions(), D.maxBodySize(), D.bodyBufferSize(), -1)::check);
    }

    @Test
    void theLargestValuesPass() {
        accepts(new RequestLimits(Integer.MAX_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE, Long.MAX_VALUE,
            Integer.MAX_VALUE, Long.MAX_VALUE)::check);
    }
}
