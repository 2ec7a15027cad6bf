# frozen_string_literal: true

require "open3"
require "tmpdir"
require "fileutils"
require_relative "../jruby/bridge_helper"
require_relative "python_clients"
require "json"
require "zlib"
require "time"

# For the file specs: a public directory to serve, FileOptions for with_app, and curl as the
# client (-D - for the head, the body in a file; bounded by --max-time).
module FilesHelper
  Files = Java::OrgNettyrackCoreFiles
  Reply = Struct.new(:status, :headers, :body, :stderr)

  def file_options(dir, dotfiles: false, cache: {}, sendfile: false)
    rules = cache.map { |prefix, value| Files::CacheRules::Rule.new(prefix, value) }
    Files::FileOptions.new(dir && java.nio.file.Paths.get(dir), dotfiles, Files::CacheRules.new(rules), sendfile)
  end

  # curl ARGS against http://127.0.0.1:PORT+path; the first head's status and fields, the body.
  def curl(port, path, *args)
    Dir.mktmpdir("nettyrack-curl") do |dir|
      body = File.join(dir, "body")
      out, err, = Open3.capture3("curl", "-s", "-S", "--max-time", "20", "-D", "-", "-o", body, *args,
                                 "http://127.0.0.1:#{port}#{path}")
      heads = out.split(/\r\n\r\n/)
      final = heads.reverse.find { |head| head.start_with?("HTTP/") } || ""
      status = final[/\AHTTP\/\S+ (\d+)/, 1].to_i
      headers = final.lines.drop(1).to_h { |line| line.chomp.split(": ", 2).then { |k, v| [k.downcase, v] } }
      Reply.new(status, headers, File.exist?(body) ? File.binread(body) : "", err)
    end
  end
end

RSpec.configure { |c| c.include FilesHelper }
