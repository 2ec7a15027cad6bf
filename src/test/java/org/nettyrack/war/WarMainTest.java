package org.nettyrack.war;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WarMainTest {
    @TempDir
    Path app;

    private static Properties properties() {
        Properties properties = new Properties();
        properties.setProperty("launcher", "gems/gems/nettyrack-0.1.0-java/bin/nettyrack");
        properties.setProperty("rack.env", "staging");
        properties.setProperty("bundle.without", "development:test");
        return properties;
    }

    @Test
    void runsThePackagedLauncherWithTheCommandLinesArguments() {
        String[] args = WarMain.rubyArgs(app, properties(), new String[] {"-p", "8080"});
        assertArrayEquals(new String[] {app.resolve("gems/gems/nettyrack-0.1.0-java/bin/nettyrack").toString(), "-p", "8080"}, args);
    }

    @Test
    void refusesAWarWithoutALauncher() {
        assertThrows(IllegalStateException.class, () -> WarMain.rubyArgs(app, new Properties(), new String[0]));
    }

    @Test
    void pointsRubyGemsAtTheWarsGemsAndDefaultsRackEnvToTheWars() {
        assumeTrue(System.getenv("RACK_ENV") == null, "RACK_ENV is set in this environment");
        Map<String, String> env = WarMain.environment(app, properties());
        assertEquals(app.resolve("gems").toString(), env.get("GEM_PATH"));
        assertFalse(env.containsKey("GEM_HOME"));
        assertEquals("staging", env.get("RACK_ENV"));
        assertEquals(System.getenv("NETTYRACK_JVM"), env.get("NETTYRACK_JVM"), "the JVM settings are bin/nettyrack's to add");
        assertFalse(env.containsKey("BUNDLE_GEMFILE") && env.get("BUNDLE_GEMFILE").startsWith(app.toString()));
    }

    @Test
    void pointsBundlerAtThePackagedGemfileWithoutTheGroupsLeftOut() throws IOException {
        assumeTrue(System.getenv("BUNDLE_WITHOUT") == null, "BUNDLE_WITHOUT is set in this environment");
        Files.writeString(app.resolve("Gemfile"), "gem 'rack'\n");
        Map<String, String> env = WarMain.environment(app, properties());
        assertEquals(app.resolve("Gemfile").toString(), env.get("BUNDLE_GEMFILE"));
        assertEquals("development:test", env.get("BUNDLE_WITHOUT"));
    }
}
