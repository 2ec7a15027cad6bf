package org.nettyrack.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SentinelUrlTest {
    @Test
    void readsSentinelsMasterCredentialsAndDatabase() {
        SentinelUrl url = SentinelUrl.parse("redis-sentinel://app:s%40cret@10.0.0.1,10.0.0.2:26380,[::1]:26381/mymaster/2");
        assertEquals(List.of(new Address("10.0.0.1", 26379), new Address("10.0.0.2", 26380),
            new Address("::1", 26381)), url.sentinels());
        assertEquals("mymaster", url.master());
        assertEquals("app", url.user());
        assertEquals("s@cret", url.password());
        assertEquals(2, url.database());
        assertEquals("redis-sentinel://app:***@10.0.0.1:26379,10.0.0.2:26380,[::1]:26381/mymaster/2", url.toString());
    }

    @Test
    void oneSentinelAndNoDatabase() {
        SentinelUrl url = SentinelUrl.parse("redis-sentinel://sentinel.internal/cache");
        assertEquals(List.of(new Address("sentinel.internal", 26379)), url.sentinels());
        assertEquals(0, url.database());
        assertEquals("redis-sentinel://sentinel.internal:26379/cache", url.toString());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "redis://h:1/m | use redis-sentinel://HOST[:PORT][,HOST[:PORT]...]/MASTER-NAME[/DB]",
        "redis-sentinel://h:26379 | no master name: add /MASTER-NAME after the sentinels",
        "redis-sentinel://h:26379/ | the path must be /MASTER-NAME or /MASTER-NAME/DB",
        "redis-sentinel://h/m/x | the database must be a number, like /mymaster/0",
        "redis-sentinel://h/m/0/1 | the path must be /MASTER-NAME or /MASTER-NAME/DB",
        "redis-sentinel://h,,g/m | an empty sentinel address",
        "redis-sentinel://h:0/m | port 0 is not in 1..65535",
        "redis-sentinel://h:99999/m | port 99999 is not in 1..65535",
        "redis-sentinel://h:x/m | port x is not in 1..65535",
        "redis-sentinel://[::1/m | bad IPv6 address [::1",
        "redis-sentinel://h/m?x=1 | no ?query or #fragment allowed",
    })
    void refusesWithTheReason(String url, String why) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SentinelUrl.parse(url));
        assertEquals("\"" + url + "\" is not a Redis Sentinel URL (" + why + ")", e.getMessage());
    }
}
