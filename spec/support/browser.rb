# frozen_string_literal: true

require "fileutils"
require "json"
require "tmpdir"
require "uri"
require_relative "test_certificates"
require_relative "deadline"

# Headless Chromium for end-to-end specs, driven over the DevTools protocol on a pipe
# (--remote-debugging-pipe: commands go in on the child's fd 3, replies and events come out on
# its fd 4, each a JSON text ended by a NUL byte). Every wait has a deadline; #close (call it
# in an ensure) ends Chromium's whole process group and removes its profile.
#
#   skip Browser::MISSING unless Browser.executable
#   browser = Browser.launch
#   page = browser.open("http://127.0.0.1:#{port}/")  # returns once the page has loaded
#   page.type("#text", "hello")
#   page.text("#log", including: "hello")  # the element's text once it includes "hello"
#   browser.close
class Browser
  NAMES = %w[chromium chromium-browser google-chrome].freeze
  MISSING = "Chromium is not installed (apt-get install chromium; script/bootstrap does)"
  # Background tabs keep full-speed timers: a spec drives several pages at once.
  FLAGS = %w[--headless=new --no-sandbox --disable-gpu --no-first-run --no-default-browser-check
             --disable-background-timer-throttling --disable-renderer-backgrounding
             --disable-backgrounding-occluded-windows --remote-debugging-pipe].freeze

  # The first Chromium on $PATH, or nil.
  def self.executable
    dirs = ENV.fetch("PATH", "").split(File::PATH_SEPARATOR)
    NAMES.product(dirs).map { |name, dir| File.join(dir, name) }.find { |path| File.executable?(path) }
  end

  # +flags+: more command-line switches (--ignore-certificate-errors for a test certificate).
  def self.launch(timeout: 30, flags: [])
    new(executable || raise(MISSING), timeout, flags)
  end

  def initialize(executable, timeout, flags = [])
    @timeout = timeout
    @dir = Dir.mktmpdir("nettyrack-chromium")
    @log = File.join(@dir, "chromium.log")
    commands, @commands = IO.pipe
    @replies, replies = IO.pipe
    @pid = Process.spawn(executable, *FLAGS, *flags, "--user-data-dir=#{File.join(@dir, 'profile')}", "about:blank",
                         3 => commands, 4 => replies, in: File::NULL, out: File::NULL, err: @log, pgroup: true)
    commands.close
    replies.close
    @commands.sync = true
    @exit = Process.detach(@pid)
    @buffer = +""
    @events = []
    @next_id = 0
    command("Browser.getVersion")
  end

  # Serves +app+ from a Nettyrack::Server on an ssl:// listener (ALPN offers h2) with a
  # certificate made for the test, and yields it with a headless Chromium that trusts that
  # certificate by its key (--ignore-certificate-errors-spki-list: unlike
  # --ignore-certificate-errors, no certificate error is left to turn features off, such as
  # Early Hints); stops both afterwards. Open pages at https://localhost:PORT/.
  def self.with_tls_server(app, threads: [2, 4])
    Dir.mktmpdir("nettyrack-browser-tls") do |dir|
      certs = TestCertificates.new(dir)
      pem, key = certs.server("server")
      server = Nettyrack::Server.new(app, binds: ["ssl://127.0.0.1:0?#{URI.encode_www_form(cert: pem, key: key)}"],
                                          threads: threads, errors: StringIO.new)
      server.start
      browser = launch(flags: ["--ignore-certificate-errors-spki-list=#{certs.spki('server')}"])
      yield server, browser
    ensure
      browser&.close
      server&.stop
    end
  end

  # A new tab showing +url+, once its load event fired.
  def open(url, timeout: @timeout)
    target = command("Target.createTarget", { url: "about:blank" })["targetId"]
    session = command("Target.attachToTarget", { targetId: target, flatten: true })["sessionId"]
    Page.new(self, target, session).tap { |page| page.navigate(url, timeout) }
  end

  # Sends one DevTools command (to a page's +session+, else to the browser) and returns its
  # result; raises on an error reply or when none came within +timeout+ seconds.
  def command(method, params = {}, session: nil, timeout: @timeout)
    id = (@next_id += 1)
    message = { id: id, method: method, params: params }
    message[:sessionId] = session if session
    @commands.write(JSON.generate(message), "\0")
    reply = receive(timeout, "the reply to #{method}") { |m| m["id"] == id }
    raise "#{method}: #{reply['error']['message']}" if reply["error"]

    reply["result"]
  end

  # The next event +method+ from +session+ (one that arrived earlier counts).
  def event(method, session, timeout)
    receive(timeout, "the #{method} event") { |m| m["method"] == method && m["sessionId"] == session }
  end

  def close
    command("Browser.close", timeout: 10) if @exit.alive?
    @exit.join(10)
  rescue RuntimeError, IOError, SystemCallError
    nil # killed below
  ensure
    begin
      Process.kill("KILL", -@pid) # whatever is left of Chromium's process group
    rescue Errno::ESRCH, Errno::EPERM
      nil
    end
    @commands.close unless @commands.closed?
    @replies.close unless @replies.closed?
    FileUtils.rm_rf(@dir)
  end

  private

  # The first message the block accepts; the events it passes over are kept for #event.
  def receive(timeout, what)
    found = @events.find { |message| yield message }
    return @events.delete(found) if found

    limit = Deadline.now + timeout
    loop do
      while (nul = @buffer.index("\0"))
        message = JSON.parse(@buffer.slice!(0, nul + 1).chop.force_encoding(Encoding::UTF_8))
        return message if yield message

        @events << message if message["method"]
      end
      next if Deadline.read_some(@replies, @buffer, limit)

      raise "Chromium sent no #{what} within #{timeout} s (or exited); its log:\n#{File.read(@log)}"
    end
  end

  # One tab, attached in flat mode: its commands carry the session id.
  class Page
    def initialize(browser, target, session)
      @browser = browser
      @target = target
      @session = session
    end

    def command(method, params = {}, timeout: nil)
      @browser.command(method, params, session: @session, **{ timeout: timeout }.compact)
    end

    def navigate(url, timeout)
      command("Page.enable")
      error = command("Page.navigate", { url: url }, timeout: timeout)["errorText"]
      raise "#{url}: #{error}" if error

      @browser.event("Page.loadEventFired", @session, timeout)
    end

    # The value of a JavaScript expression, awaited if it is a promise.
    def eval(expression, timeout: nil)
      result = command("Runtime.evaluate", { expression: expression, returnByValue: true, awaitPromise: true },
                       timeout: timeout)
      raise "#{expression}: #{result['exceptionDetails']}" if result["exceptionDetails"]

      result["result"]["value"]
    end

    # The text of the element at +selector+ once it includes +fragment+, or its text when
    # +timeout+ seconds passed first (so that an expectation on it shows what the page had).
    def text(selector, including:, timeout: 30)
      eval(<<~JS, timeout: timeout + 10)
        new Promise((resolve) => {
          const deadline = Date.now() + #{(timeout * 1000).to_i};
          const check = () => {
            const text = document.querySelector(#{selector.to_json})?.innerText ?? "";
            if (text.includes(#{including.to_json}) || Date.now() > deadline) resolve(text);
            else setTimeout(check, 20);
          };
          check();
        })
      JS
    end

    # Types +text+ into the element at +selector+ as keyboard input would.
    def type(selector, text)
      command("Page.bringToFront")
      eval("document.querySelector(#{selector.to_json}).focus()")
      command("Input.insertText", { text: text })
    end

    def click(selector)
      eval("document.querySelector(#{selector.to_json}).click()")
    end

    def close
      @browser.command("Target.closeTarget", { targetId: @target })
    end
  end
end
