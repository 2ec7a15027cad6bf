# frozen_string_literal: true

require "fileutils"
require_relative "../rails_lib/servers"

# The three ways bench/war serves bench/hello.ru, each a lambda(port) -> [env, argv] for
# RailsServers::Server (which starts it in its own process group, waits for its first answer
# and stops the group):
#   nettyrack-filter  the WAR `nettyrack war` built, deployed in Jetty 12 (bench/war_lib/WarJetty.java)
#   nettyrack-filter-unbounded  the same app in a WAR with the context param threads=1000
#   jruby-rack        the same app, JRuby jars and Rack gem as an exploded web app with jruby-rack
#                     2.0's listener and RackFilter, one runtime, in the same Jetty
#   nettyrack         bin/nettyrack, the Netty door
#   nettyrack-war     the WAR of nettyrack-filter run alone, `java -jar hello.war` (the Netty door)
# Both Jetty JVMs get the JVM settings bin/nettyrack gives itself (lib/nettyrack/jvm_tuning.rb)
# and neither the toolchain's GEM_PATH nor its JRUBY_OPTS: each web app brings what it needs.
# The executable WAR gets no flags but its temporary directory, as a user's `java -jar` would.
module WarServers
  ROOT = RailsServers::ROOT
  HELLO = File.join(ROOT, "bench/hello.ru")
  WORK = File.join(ROOT, "target/bench-war")
  WAR = File.join(WORK, "hello.war")
  UNBOUNDED_WAR = File.join(WORK, "hello-unbounded.war")
  JRUBY_RACK_JAR = File.join(WORK, "jruby-rack-lib/jruby-rack-2.0.0.jar")
  JVM = %w[-Xmx512m -XX:+UseCompactObjectHeaders --enable-native-access=ALL-UNNAMED].freeze
  OUTSIDE_TOOLCHAIN = %w[GEM_PATH GEM_HOME RUBYLIB RUBYOPT JRUBY_OPTS JAVA_OPTS].to_h { |name| [name, nil] }.freeze
  JRUBY_RACK_PARAMS = { "rack.env" => "production", "gem.path" => "/WEB-INF/gems",
                        "jruby.min.runtimes" => "1", "jruby.max.runtimes" => "1",
                        "jruby.rack.logging" => "stdout" }.freeze

  module_function

  def all(jruby_opts:, threads:, tmpdir:)
    FileUtils.mkdir_p(tmpdir)
    webapp = jruby_rack_webapp(File.join(WORK, "jruby-rack-webapp"))
    {
      "nettyrack-filter" => ->(port) { [OUTSIDE_TOOLCHAIN, jetty(port, WAR, threads, tmpdir)] },
      "nettyrack-filter-unbounded" => ->(port) { [OUTSIDE_TOOLCHAIN, jetty(port, UNBOUNDED_WAR, threads, tmpdir)] },
      "jruby-rack" => ->(port) { [OUTSIDE_TOOLCHAIN, jetty(port, webapp, threads, tmpdir)] },
      "nettyrack" => lambda do |port|
        [{ "JRUBY_OPTS" => jruby_opts },
         ["jruby", "#{ROOT}/bin/nettyrack", "-q", "-b", "tcp://127.0.0.1:#{port}", "-e", "production", HELLO]]
      end,
      "nettyrack-war" => lambda do |port|
        [OUTSIDE_TOOLCHAIN,
         ["java", "-Djava.io.tmpdir=#{tmpdir}", "-jar", WAR, "-q", "-b", "tcp://127.0.0.1:#{port}", "-e", "production"]]
      end
    }
  end

  def jetty(port, webapp, threads, tmpdir)
    ["java", *JVM, "-Djava.io.tmpdir=#{tmpdir}", "-cp", "#{WORK}/jetty/*",
     "#{ROOT}/bench/war_lib/WarJetty.java", port.to_s, webapp, threads.to_s]
  end

  # jruby-rack's web app, rebuilt from the WAR each run so both run the very same JRuby and Rack:
  # WEB-INF/lib the WAR's JRuby jars plus jruby-rack's, WEB-INF/gems the WAR's Rack gem.
  def jruby_rack_webapp(dir)
    FileUtils.rm_rf(dir)
    FileUtils.mkdir_p(dir)
    system("unzip", "-q", WAR, "WEB-INF/lib/jruby-*", "WEB-INF/gems/gems/rack-*", "WEB-INF/gems/specifications/rack-*",
           "-d", dir, exception: true)
    FileUtils.cp(JRUBY_RACK_JAR, File.join(dir, "WEB-INF/lib"))
    FileUtils.cp(HELLO, File.join(dir, "WEB-INF/config.ru"))
    File.write(File.join(dir, "WEB-INF/web.xml"), jruby_rack_web_xml)
    dir
  end

  def jruby_rack_web_xml
    params = JRUBY_RACK_PARAMS.map do |name, value|
      "  <context-param><param-name>#{name}</param-name><param-value>#{value}</param-value></context-param>\n"
    end
    <<~XML
      <?xml version="1.0" encoding="UTF-8"?>
      <web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0">
      #{params.join}  <listener><listener-class>org.jruby.rack.RackServletContextListener</listener-class></listener>
        <filter><filter-name>RackFilter</filter-name><filter-class>org.jruby.rack.RackFilter</filter-class></filter>
        <filter-mapping><filter-name>RackFilter</filter-name><url-pattern>/*</url-pattern></filter-mapping>
      </web-app>
    XML
  end
end
