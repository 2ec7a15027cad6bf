# frozen_string_literal: true

require "tmpdir"

# bin/nettyrack with ssl:// listeners, as a person runs it: the boot line, SIGHUP reloading the
# certificate (new connections get the new one, an open keep-alive connection carries on),
# and files that do not make a TLS setup refused at boot in one sentence with status 1.
RSpec.describe "bin/nettyrack with ssl://" do
  let(:root) { File.expand_path("../..", __dir__) }

  around do |example|
    Dir.mktmpdir("nettyrack-tls-cli") do |dir|
      @certs = TestCertificates.new(dir)
      @pem, @key = @certs.server("server")
      example.run
    end
  end

  def nettyrack(*args)
    child = NettyrackProcess.new(*args, chdir: root)
    yield child
  ensure
    child&.kill
  end

  it "says what serves TLS, and reloads the certificate on SIGHUP without dropping connections" do
    nettyrack("-b", "ssl://127.0.0.1:0?cert=#{@pem}&key=#{@key}", "spec/fixtures/hello.ru") do |child|
      boot = child.stdout_match(%r{4 threads, TLS by (OpenSSL|JDK)[^)]*\)?\) listening on https://127\.0\.0\.1:(\d+)\n})
      port = Integer(boot[2])
      open = TlsClient.new(port)
      expect(open.get("/one")).to eq("hello /one")
      @certs.server("server", cn: "renewed")
      child.signal("HUP")
      child.stdout_match(/^nettyrack: SIGHUP: TLS certificates reloaded \(1 listener\)\n/)
      expect(TlsClient.new(port).subject).to eq("/CN=renewed")
      expect(open.get("/two")).to eq("hello /two")
      File.write(@pem, "")
      child.signal("HUP")
      child.stderr_match(%r{^nettyrack: SIGHUP: TLS certificates not reloaded, the ones in use stay: https://127\.0\.0\.1:\d+: cert file \S+ holds no PEM certificate\n})
      expect(TlsClient.new(port).subject).to eq("/CN=renewed")
      child.signal("TERM")
      expect(child.wait.exitstatus).to eq(0)
      expect(child.stderr.lines.size).to eq(1)
    ensure
      open&.close
    end
  end

  {
    "a missing file" => [->(t) { "cert=#{t.path('gone.pem')}&key=#{t.path('server.key')}" }, /cannot read cert file \S+gone\.pem: no such file/],
    "a wrong keystore password" => [->(t) { "keystore=#{t.keystore('server', 'right')}&keystore-pass=wrong" }, /keystore \S+server\.p12: wrong keystore-pass/],
    "a key that does not match the certificate" => [->(t) { "cert=#{t.server('other').first}&key=#{t.path('server.key')}" }, /key \S+server\.key does not match the certificate in \S+other\.pem/]
  }.each do |what, (query, message)|
    it "refuses #{what} in one sentence, with status 1" do
      nettyrack("-b", "ssl://127.0.0.1:0?#{query.call(@certs)}", "spec/fixtures/hello.ru") do |child|
        expect(child.wait.exitstatus).to eq(1)
        expect(child.stderr.lines.size).to eq(1)
        expect(child.stderr).to match(%r{\Anettyrack: https://127\.0\.0\.1:0: .*#{message}\n\z})
        expect(child.stdout).to eq("")
      end
    end
  end
end
