# frozen_string_literal: true

require "open3"

# Every app under examples/ served by bin/nettyrack as a user would run it, asked by
# Net::HTTP and by curl, then stopped with SIGTERM.
RSpec.describe "examples/" do
  let(:root) { File.expand_path("..", __dir__) }

  {
    "hello" => { "/" => /Hello from nettyrack on jruby/ },
    "sinatra" => { "/" => /sinatra 3\.\d+\.\d+ on jruby/, "/json/21" => /\A\{"n":42\}\z/ },
    "rails" => { "/" => /hello from Rails 6\.1/, "/json/21" => /"n":42,"engine":"jruby"/ },
  }.each do |name, routes|
    it "serves #{name}" do
      child = NettyrackProcess.new("-b", "tcp://127.0.0.1:0", "-e", "production", "examples/#{name}/config.ru",
                                   chdir: root)
      port = child.stdout_match(%r{listening on http://127\.0\.0\.1:(\d+)}, timeout: 120)[1]
      routes.each do |path, body|
        expect(fetch("http://127.0.0.1:#{port}#{path}", timeout: 60).body).to match(body)
        curl, status = Open3.capture2("curl", "-sS", "--max-time", "30", "http://127.0.0.1:#{port}#{path}")
        expect([status.success?, curl]).to match([true, body])
      end
      if name == "sinatra"
        expect(post("http://127.0.0.1:#{port}/echo", "quiet please").body).to eq("QUIET PLEASE")
      end
      child.signal("TERM")
      expect(child.wait.exitstatus).to eq(0)
    ensure
      child&.kill
    end
  end
end
