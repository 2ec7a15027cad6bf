# frozen_string_literal: true

require "fileutils"
require "tmpdir"

# `nettyrack war` as a person runs it: a WAR from a small app with a config/warble.rb, its
# entries and web.xml, the same WAR run with `java -jar`, a user's own web.xml, and the
# mistakes the command turns into one line and status 1. Each build and each `java -jar`
# boots a JVM, so the app is packaged once for the examples that read its WAR.
RSpec.describe "nettyrack war" do
  include WarHelpers

  GREETER = {
    "config.ru" => <<~RUBY,
      require "bundler/setup" # the Gemfile's test group is not in the WAR, nor looked for
      require_relative "lib/greeting"
      use Rack::Static, urls: ["/index.html"], root: "public"
      run ->(env) { [200, { "content-type" => "text/plain" }, ["\#{Greeting.text} \#{env['PATH_INFO']} in \#{ENV['RACK_ENV']}"]] }
    RUBY
    "Gemfile" => "source \"https://rubygems.org\"\ngem \"rack\"\ngroup :test do\n  gem \"rspec\"\nend\n",
    "lib/greeting.rb" => "module Greeting\n  def self.text = \"hello from a WAR\"\nend\n",
    "app/views/page.txt" => "a page",
    "app/secret/key.txt" => "do not ship",
    "log/development.log" => "a log line",
    "extra/notes.txt" => "notes",
    "extra/skip.md" => "not included",
    "public/index.html" => "<p>static</p>",
    "config/warble.rb" => <<~RUBY,
      Warbler::Config.new do |config|
        config.jar_name = "greeter"
        config.includes = FileList["extra/*.txt"]
        config.excludes = FileList["app/secret/**/*"]
        config.webxml.rack.env = "staging"
        config.webxml.jruby.max.runtimes = 1
        config.features = %w[executable]
      end
    RUBY
  }.freeze

  before(:context) do
    @dir = Dir.mktmpdir("war-spec")
    @app = File.join(@dir, "greeter-app")
    write_files(@app, GREETER)
    @status, @stdout, @stderr = nettyrack_war(@app)
    @war = File.join(@app, "greeter.war")
  end

  after(:context) { FileUtils.rm_rf(@dir) }

  it "writes APP_DIR/<jar_name>.war, warning about the warble.rb settings it ignores" do
    expect([@status, @stderr]).to eq([0, "nettyrack war: warning: config.features is not supported by nettyrack war; ignored\n"])
    expect(@stdout).to match(%r{\Anettyrack war: wrote #{Regexp.escape(@war)} \(\d+ entries, [\d.]+ MB\)\n\z})
  end

  it "lays the WAR out as Warbler does, with config/warble.rb's includes and excludes" do
    names = war_entries(@war)
    expect(names).to include("WEB-INF/config.ru", "WEB-INF/Gemfile", "WEB-INF/Gemfile.lock", "WEB-INF/lib/greeting.rb",
                             "WEB-INF/app/views/page.txt", "WEB-INF/config/warble.rb", "WEB-INF/extra/notes.txt",
                             "index.html", "WEB-INF/web.xml", "META-INF/MANIFEST.MF",
                             "org/nettyrack/war/WarMain.class", "WEB-INF/lib/nettyrack.jar",
                             "WEB-INF/lib/jruby-#{JRUBY_VERSION}.jar", "WEB-INF/lib/jruby-stdlib-#{JRUBY_VERSION}.jar",
                             "WEB-INF/gems/gems/nettyrack-#{Nettyrack::VERSION}-java/bin/nettyrack",
                             "WEB-INF/gems/gems/nettyrack-#{Nettyrack::VERSION}-java/lib/nettyrack.rb")
    expect(names.grep(/netty-codec-http-.*\.jar/)).not_to be_empty
    expect(names.grep(%r{\AWEB-INF/gems/specifications/rack-2\.\d+\.\d+\.gemspec\z})).not_to be_empty
    expect(names.grep(%r{\AWEB-INF/gems/gems/rack-2\.\d+\.\d+/lib/rack\.rb\z})).not_to be_empty
    expect(names).not_to include("WEB-INF/app/secret/key.txt", "WEB-INF/log/development.log",
                                 "WEB-INF/extra/skip.md", "public/index.html", "WEB-INF/greeter.war")
    expect(names.grep(/rspec/)).to eq([]) # the Gemfile's test group
  end

  it "generates web.xml with nettyrack's listener and filter and the warble.rb params" do
    xml = war_read(@war, "WEB-INF/web.xml")
    params = xml.scan(%r{<param-name>(.*?)</param-name>\s*<param-value>(.*?)</param-value>}).to_h
    expect(params).to eq("rack.env" => "staging", "public.root" => "/", "jruby.max.runtimes" => "1")
    expect(xml).to include("<listener-class>org.nettyrack.servlet.RackListener</listener-class>",
                           "<filter-class>org.nettyrack.servlet.RackFilter</filter-class>",
                           "<async-supported>true</async-supported>", "<url-pattern>/*</url-pattern>")
    expect(war_read(@war, "META-INF/MANIFEST.MF")).to include("Main-Class: org.nettyrack.war.WarMain")
  end

  it "writes a jetty-web.xml that has Jetty stop the web app before it closes its connections" do
    xml = war_read(@war, "WEB-INF/jetty-web.xml")
    expect(xml).to include('<Configure id="nettyrackWebApp">',
                           '<Call class="org.eclipse.jetty.util.thread.ShutdownThread" name="register">',
                           '<Item><Ref refid="nettyrackWebApp"/></Item>')
  end

  it "has each class once across WEB-INF/lib: Jetty warns of a class in two jars" do
    zip = java.util.zip.ZipFile.new(@war)
    owners = Hash.new { |hash, name| hash[name] = [] }
    zip.entries.select { |entry| entry.name.match?(%r{\AWEB-INF/lib/[^/]+\.jar\z}) }.each do |entry|
      jar = java.util.zip.ZipInputStream.new(zip.get_input_stream(entry))
      while (inner = jar.next_entry)
        name = inner.name
        owners[name] << File.basename(entry.name) if name.end_with?(".class") && !name.start_with?("META-INF/") && name != "module-info.class"
      end
    end
    expect(owners.select { |_name, jars| jars.size > 1 }.keys.first(5)).to eq([])
    expect(owners).to include("com/jcraft/jzlib/Deflater.class") # in JRuby's jar
  ensure
    zip&.close
  end

  it "serves the app with java -jar: its lib, its public files, the WAR's rack.env; SIGTERM stops it cleanly" do
    Dir.mktmpdir("war-run") do |tmp|
      java_jar(@war, "-b", "tcp://127.0.0.1:0", tmpdir: tmp) do |child|
        port = war_port(child)
        expect(fetch("http://127.0.0.1:#{port}/hi", timeout: 60).body).to eq("hello from a WAR /hi in staging")
        expect(fetch("http://127.0.0.1:#{port}/index.html", timeout: 60).body).to eq("<p>static</p>")
        expect(Dir.children(tmp).grep(/\Anettyrack-war-/).size).to eq(1)
        child.signal("TERM")
        expect(child.wait(timeout: 60).exitstatus).to eq(0)
        expect(child.stdout).to end_with("nettyrack: shutting down (SIGTERM)\n")
        expect(Dir.children(tmp).grep(/\Anettyrack-war-/)).to eq([]) # unpacked for the run, removed after it
      end
    end
  end

  it "starts its JVM once more with bin/nettyrack's settings, same pid, and unpacks the WAR once" do
    Dir.mktmpdir("war-run") do |tmp|
      java_jar(@war, "-b", "tcp://127.0.0.1:0", tmpdir: tmp, env: { "NETTYRACK_JVM" => nil }) do |child|
        port = war_port(child)
        expect(fetch("http://127.0.0.1:#{port}/hi", timeout: 60).body).to eq("hello from a WAR /hi in staging")
        jvm = File.binread("/proc/#{child.pid}/cmdline").split("\0")
        expect(jvm).to include("-Djava.io.tmpdir=#{tmp}", "-XX:TieredStopAtLevel=1", "-jar", @war)
        expect(jvm.grep(/\A-Xmx\d+m\z/).size).to eq(1), jvm.join(" ")
        expect(jvm.index("-jar")).to be > jvm.index("-XX:TieredStopAtLevel=1")
        expect(Dir.children(tmp).grep(/\Anettyrack-war-/).size).to eq(1)
        child.signal("TERM")
        expect(child.wait(timeout: 60).exitstatus).to eq(0)
        expect(Dir.children(tmp).grep(/\Anettyrack-war-/)).to eq([])
      end
    end
  end

  it "reads $PORT as bin/nettyrack does" do
    Dir.mktmpdir("war-run") do |tmp|
      java_jar(@war, tmpdir: tmp, env: { "PORT" => "web" }) do |child|
        expect(child.wait(timeout: 240).exitstatus).to eq(1)
        expect(child.stderr).to include("nettyrack: invalid $PORT")
        expect(Dir.children(tmp).grep(/\Anettyrack-war-/)).to eq([])
      end
    end
  end

  it "says so when the WAR's JRuby needs a newer Java than the one running it" do
    java17 = java17_or_skip
    Dir.mktmpdir("war-run") do |tmp|
      child = NettyrackProcess.new(command: [java17, "-Djava.io.tmpdir=#{tmp}", "-jar", @war], chdir: tmp)
      expect(child.wait.exitstatus).to eq(1)
      expect(child.stderr).to start_with("nettyrack: this WAR's JRuby needs a newer Java than 17 (")
      expect(Dir.children(tmp)).to eq([])
    ensure
      child&.kill
    end
  end

  it "puts the app's own config/web.xml and config/jetty-web.xml in their places, and Rack without a Gemfile" do
    app = File.join(@dir, "own-webxml")
    own = "<?xml version=\"1.0\"?>\n<web-app version=\"6.0\"><display-name>mine</display-name></web-app>\n"
    write_files(app, "config.ru" => "run ->(env) { [200, {}, ['ok']] }\n", "config/web.xml" => own, "config/jetty-web.xml" => "<Configure/>\n")
    war = File.join(@dir, "own.war")
    status, = nettyrack_war(app, "-o", war)
    expect(status).to eq(0)
    expect(war_read(war, "WEB-INF/web.xml")).to eq(own)
    expect(war_read(war, "WEB-INF/jetty-web.xml")).to eq("<Configure/>\n")
    expect(war_entries(war).grep(%r{\AWEB-INF/gems/specifications/rack-})).not_to be_empty
  end

  context "with bad input" do
    def fails(*args)
      status, stdout, stderr = nettyrack_war(*args, timeout: 120)
      expect([status, stdout]).to eq([1, ""])
      stderr
    end

    it "names what is wrong in one line and exits 1" do
      empty = File.join(@dir, "empty")
      FileUtils.mkdir_p(empty)
      expect(fails(empty)).to eq("nettyrack war: no config.ru in #{empty}: nettyrack war packages the Rack app there\n")
      expect(fails(File.join(@dir, "missing"))).to eq("nettyrack war: #{File.join(@dir, 'missing')} is not a directory\n")
      expect(fails(@app, "--frobnicate")).to eq("nettyrack war: invalid option: --frobnicate (see nettyrack war --help)\n")
      not_dir = File.join(@app, "config.ru", "x.war")
      expect(fails(@app, "-o", not_dir).lines.last)
        .to eq("nettyrack war: cannot write #{not_dir}: #{File.dirname(not_dir)} is not a directory\n")
    end

    it "names the line of a broken config/warble.rb" do
      broken = File.join(@dir, "broken")
      write_files(broken, "config.ru" => "run ->(env) { [200, {}, []] }\n",
                          "config/warble.rb" => "Warbler::Config.new do |config|\n  config.dirs = nope\nend\n")
      expect(fails(broken)).to match(%r{\Anettyrack war: #{Regexp.escape(broken)}/config/warble\.rb: line 2: undefined local variable or method .nope.})
      expect(Dir.children(broken)).to contain_exactly("config.ru", "config")
    end
  end
end
