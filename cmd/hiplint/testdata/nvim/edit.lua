-- Drives a headless Neovim configured by docs/editors.md's snippet (loaded
-- with -u before this script runs), for TestNeovimConfigFromTheDocs: open a
-- Go file (the snippet's FileType autocommand starts hiplint lsp), wait for
-- its diagnostics, insert lines above them without saving, and wait for the
-- diagnostics to move with the unsaved buffer. Then open a second Go file
-- of the same module and count the hiplint clients: one per module root.
--
-- Environment: HIPLINT_FILE (the Go file), HIPLINT_OTHER (another Go file
-- of its package), HIPLINT_INSERT (how many lines to insert), HIPLINT_OUT
-- (a JSON report to write).

local file = assert(os.getenv('HIPLINT_FILE'), 'HIPLINT_FILE not set')
local other = assert(os.getenv('HIPLINT_OTHER'), 'HIPLINT_OTHER not set')
local insert = assert(tonumber(os.getenv('HIPLINT_INSERT')), 'HIPLINT_INSERT not set')
local out = assert(os.getenv('HIPLINT_OUT'), 'HIPLINT_OUT not set')
local timeout_ms = 180000

local function diagnostics(bufnr)
  local list = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    table.insert(list, {
      code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code),
      lnum = d.lnum,
      col = d.col,
      message = d.message,
      source = d.source,
    })
  end
  return list
end

-- hiplint_clients returns the ids of the hiplint clients attached to bufnr.
local function hiplint_clients(bufnr)
  local clients
  if vim.lsp.get_clients then
    clients = vim.lsp.get_clients({ bufnr = bufnr })
  else
    clients = vim.tbl_values(vim.lsp.buf_get_clients(bufnr))
  end
  local ids = {}
  for _, c in ipairs(clients) do
    if c.name == 'hiplint' then
      table.insert(ids, c.id)
    end
  end
  return ids
end

local function main()
  vim.o.hidden = true -- leave the edited buffer unsaved when opening the next
  vim.cmd('edit ' .. vim.fn.fnameescape(file))
  local bufnr = vim.api.nvim_get_current_buf()
  assert(vim.bo[bufnr].filetype == 'go', 'filetype is ' .. vim.bo[bufnr].filetype)
  assert(vim.wait(timeout_ms, function()
    return #vim.diagnostic.get(bufnr) > 0
  end, 100), 'no diagnostics from hiplint lsp')
  local report = { version = tostring(vim.version().major .. '.' .. vim.version().minor .. '.' .. vim.version().patch) }
  report.before = diagnostics(bufnr)
  local first = report.before[1].lnum

  local lines = {}
  for i = 1, insert do
    table.insert(lines, '// inserted line ' .. i)
  end
  vim.api.nvim_buf_set_lines(bufnr, 0, 0, false, lines)
  assert(vim.wait(timeout_ms, function()
    local now = vim.diagnostic.get(bufnr)
    return #now > 0 and now[1].lnum ~= first
  end, 100), 'the diagnostics did not move with the unsaved edit')
  report.after = diagnostics(bufnr)
  report.modified = vim.bo[bufnr].modified

  vim.cmd('edit ' .. vim.fn.fnameescape(other))
  local other_buf = vim.api.nvim_get_current_buf()
  assert(vim.wait(timeout_ms, function()
    return #hiplint_clients(other_buf) > 0
  end, 100), 'no hiplint client attached to the second file')
  local ids = {}
  for _, b in ipairs({ bufnr, other_buf }) do
    for _, id in ipairs(hiplint_clients(b)) do
      ids[id] = true
    end
  end
  report.clients = vim.tbl_count(ids)

  vim.fn.writefile({ vim.fn.json_encode(report) }, out)
  for id in pairs(ids) do
    vim.lsp.stop_client(id)
  end
  vim.wait(10000, function()
    for id in pairs(ids) do
      local c = vim.lsp.get_client_by_id(id)
      if c and not c.is_stopped() then
        return false
      end
    end
    return true
  end, 50)
end

local ok, err = pcall(main)
if not ok then
  io.stderr:write('edit.lua: ' .. tostring(err) .. '\n')
  vim.cmd('cquit 1')
end
vim.cmd('qall!')
