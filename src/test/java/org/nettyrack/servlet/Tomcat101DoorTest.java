package org.nettyrack.servlet;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.apache.catalina.util.ServerInfo;
import org.junit.jupiter.api.Nested;

/**
 * The servlet door in Tomcat 10.1 (Servlet 6.0): every concern of {@link ServletDoorContract},
 * nested. Runs in the pom's tomcat-10.1 Surefire execution, which puts Tomcat 10.1 on the class
 * path instead of 11 and sets {@code nettyrack.tomcat=10.1}; the main execution skips it.
 */
class Tomcat101DoorTest extends ServletDoorContract {
    @Override
    Container newContainer() {
        assumeTrue("10.1".equals(System.getProperty("nettyrack.tomcat")), "runs in the tomcat-10.1 Surefire execution");
        assertTrue(ServerInfo.getServerNumber().startsWith("10.1."), () -> "Tomcat 10.1 expected, got " + ServerInfo.getServerInfo());
        return new TomcatContainer();
    }

    @Nested class Env extends DoorEnvContract { Env() { super(Tomcat101DoorTest.this); } }
    @Nested class RequestBody extends DoorRequestBodyContract { RequestBody() { super(Tomcat101DoorTest.this); } }
    @Nested class Response extends DoorResponseContract { Response() { super(Tomcat101DoorTest.this); } }
    @Nested class StaticFiles extends DoorStaticFilesContract { StaticFiles() { super(Tomcat101DoorTest.this); } }
    @Nested class WebSockets extends DoorWebSocketContract { WebSockets() { super(Tomcat101DoorTest.this); } }
    @Nested class PubSub extends DoorPubSubContract { PubSub() { super(Tomcat101DoorTest.this); } }
    @Nested class Sse extends DoorSseContract { Sse() { super(Tomcat101DoorTest.this); } }
    @Nested class Lifecycle extends DoorLifecycleContract { Lifecycle() { super(Tomcat101DoorTest.this); } }
}
