package org.nettyrack.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ClusterUrlTest {
    @Test
    void readsSeedsAndCredentials() {
        ClusterUrl url = ClusterUrl.parse("redis-cluster://app:s%40cret@10.0.0.1,10.0.0.2:7001,[::1]:7002");
        assertEquals(List.of(new Address("10.0.0.1", 6379), new Address("10.0.0.2", 7001), new Address("::1", 7002)),
            url.seeds());
        assertEquals("app", url.user());
        assertEquals("s@cret", url.password());
        assertEquals("redis-cluster://app:***@10.0.0.1:6379,10.0.0.2:7001,[::1]:7002", url.toString());
    }

    @Test
    void oneSeedWithoutCredentials() {
        ClusterUrl url = ClusterUrl.parse("redis-cluster://:pw@cache.internal");
        assertEquals(List.of(new Address("cache.internal", 6379)), url.seeds());
        assertEquals(null, url.user());
        assertEquals("redis-cluster://:***@cache.internal:6379", url.toString());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "redis://h:7000 | use redis-cluster://HOST[:PORT][,HOST[:PORT]...]",
        "redis-cluster:// | no seed node",
        "redis-cluster://h:7000/0 | no /DB: a cluster has database 0 only",
        "redis-cluster://h:7000/ | no /DB: a cluster has database 0 only",
        "redis-cluster://h,,g | an empty seed node address",
        "redis-cluster://h, | an empty seed node address",
        "redis-cluster://h:0 | port 0 is not in 1..65535",
        "redis-cluster://h:99999 | port 99999 is not in 1..65535",
        "redis-cluster://h:x | port x is not in 1..65535",
        "redis-cluster://[::1 | bad IPv6 address [::1",
        "redis-cluster://h!x:1 | bad seed node host in h!x:1",
        "redis-cluster://h?x=1 | no ?query or #fragment allowed",
    })
    void refusesWithTheReason(String url, String why) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ClusterUrl.parse(url));
        assertEquals("\"" + url + "\" is not a Redis Cluster URL (" + why + ")", e.getMessage());
    }
}
