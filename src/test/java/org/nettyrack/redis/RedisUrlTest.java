package org.nettyrack.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RedisUrlTest {
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "-", value = {
        // url                              | host      | port | user  | password | db | tls   | shown as
        "redis://127.0.0.1                  | 127.0.0.1 | 6379 | -     | -        | 0  | false | redis://127.0.0.1:6379",
        "redis://redis.internal:6380/3      | redis.internal | 6380 | - | -      | 3  | false | redis://redis.internal:6380/3",
        "redis://:s%40cret@h:1/            | h         | 1    | -     | s@cret   | 0  | false | redis://:***@h:1",
        "redis://app:pw@h                   | h         | 6379 | app   | pw       | 0  | false | redis://app:***@h:6379",
        "rediss://h:6390                    | h         | 6390 | -     | -        | 0  | true  | rediss://h:6390",
        "redis://[::1]:7000                 | ::1       | 7000 | -     | -        | 0  | false | redis://[::1]:7000",
    })
    void parses(String url, String host, int port, String user, String password, int db, boolean tls, String shown) {
        RedisUrl parsed = RedisUrl.parse(url);
        assertEquals(new RedisUrl(host, port, user, password, db, tls), parsed);
        assertEquals(shown, parsed.toString());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "http://h:6379     | use redis://HOST[:PORT][/DB], or rediss:// for TLS",
        "127.0.0.1:6379    | use redis://HOST[:PORT][/DB], or rediss:// for TLS",
        "redis://h:0       | port 0 is not in 1..65535",
        "redis://h:70000   | port 70000 is not in 1..65535",
        "redis://h:port    | bad host or port",
        "redis://          | no host",
        "redis://h/db1     | the path must be a database number, like /0",
        "redis://h/0?x=1   | no ?query or #fragment allowed",
    })
    void rejects(String url, String why) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RedisUrl.parse(url));
        assertEquals("\"" + url + "\" is not a Redis URL (" + why + ")", e.getMessage());
    }
}
